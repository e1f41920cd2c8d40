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

/// MQTT quality-of-service level of a publish or subscription.
public enum MQTTQoS: Int32, Sendable, Hashable, CaseIterable {
    /// Fire and forget.
    case atMostOnce = 0
    /// Acknowledged with PUBACK; may be delivered more than once.
    case atLeastOnce = 1
    /// Four-way handshake; delivered exactly once.
    case exactlyOnce = 2
}

/// A message to publish, e.g. one of the final messages handed to `MQTTClient.shutdown(final:timeout:)`.
public struct MQTTPublication: Sendable, Hashable {
    public var topic: String
    public var payload: [UInt8]
    public var retain: Bool

    public init(topic: String, payload: [UInt8], retain: Bool) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }

    /// A publication with a UTF-8 text payload.
    public init(topic: String, text: String, retain: Bool) {
        self.init(topic: topic, payload: Array(text.utf8), retain: retain)
    }
}

/// One item of `MQTTClient.inbound`: a message, or the report of a message too large to deliver.
public enum MQTTInbound: Sendable, Hashable {
    /// A message whose payload is within `MQTTClientOptions.maxInboundPayloadBytes`.
    case message(MQTTMessage)
    /// A message whose payload exceeded `MQTTClientOptions.maxInboundPayloadBytes`; its payload was not
    /// copied. The bridge reports it (e.g. as `command_rejected`).
    case oversized(topic: String, size: Int, retained: Bool)

    /// The topic of either case.
    public var topic: String {
        switch self {
        case .message(let message): message.topic
        case .oversized(let topic, _, _): topic
        }
    }
}
