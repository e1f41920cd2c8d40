/// An MQTT message received from the broker (payload copied out of libmosquitto's buffer).
public struct MQTTMessage: Sendable, Hashable {
    public let topic: String
    public let payload: [UInt8]
    /// True when the broker delivered it from its retained store (i.e. on subscribe).
    public let retained: Bool
    public let qos: MQTTQoS

    public init(topic: String, payload: [UInt8], retained: Bool, qos: MQTTQoS) {
        self.topic = topic
        self.payload = payload
        self.retained = retained
        self.qos = qos
    }

    /// The payload decoded as UTF-8 (invalid sequences replaced).
    public var text: String { String(decoding: payload, as: UTF8.self) }
}
