/// What the bridge needs from an MQTT connection. `MQTTDriver` implements it over libmosquitto; tests may
/// use a fake.
public protocol MQTTPort: Sendable {
    /// Publishes a message. Retained messages are the bridge's state: the implementation keeps the latest
    /// per topic and republishes them after every reconnect.
    func publish(topic: String, payload: [UInt8], retain: Bool) async
    /// Subscribes (and re-subscribes after every reconnect).
    func subscribe(_ filter: String) async
    /// Subscribes so that a message published with the retain flag keeps it when it is forwarded live (MQTT 5's
    /// Retain As Published): the bridge's command subscriptions, so that a retained command is refused whenever
    /// it is published, not only when the broker replays it.
    func subscribe(_ filter: String, retainAsPublished: Bool) async
}

extension MQTTPort {
    /// By default the flag is not asked for (a fake port has no broker).
    public func subscribe(_ filter: String, retainAsPublished: Bool) async {
        await subscribe(filter)
    }

    /// Publishes a text payload.
    public func publish(topic: String, text: String, retain: Bool) async {
        await publish(topic: topic, payload: Array(text.utf8), retain: retain)
    }
}

/// An MQTT message delivered to the bridge.
public struct InboundMessage: Sendable {
    public let topic: String
    public let payload: [UInt8]
    public let retained: Bool
    /// Set when the payload was too large to be delivered: its size in bytes (`payload` is then empty).
    public let oversize: Int?

    public init(topic: String, payload: [UInt8], retained: Bool, oversize: Int? = nil) {
        self.topic = topic
        self.payload = payload
        self.retained = retained
        self.oversize = oversize
    }
}
