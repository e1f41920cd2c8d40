/// What the bridge needs from an MQTT connection. `MQTTDriver` implements it over libmosquitto; tests may
/// use a fake.
public protocol MQTTPort: Sendable {
    /// Publishes a message. Retained messages are the bridge's state: the implementation keeps the latest
    /// per topic and republishes them after every reconnect.
    func publish(topic: String, payload: [UInt8], retain: Bool) async
    /// Publishes a message; with `keep` false a retained one is not kept for republishing after a reconnect (nor
    /// sent later when the connection is down now): its publisher publishes it again on each of ``connections()``.
    /// Clearing a topic (an empty retained payload) is kept until it is sent, whatever `keep` says.
    func publish(topic: String, payload: [UInt8], retain: Bool, keep: Bool) async
    /// Subscribes (and re-subscribes after every reconnect).
    func subscribe(_ filter: String) async
    /// Subscribes with MQTT 5 subscription options (and re-subscribes after every reconnect).
    func subscribe(_ filter: String, options: MQTTSubscriptionOptions) async
    /// An element each time the connection to the broker is established (at once when it is up now), after
    /// the implementation has resent what it keeps (subscriptions, retained messages): the broker may have lost
    /// everything retained. Each call makes a new stream; it finishes when the connection is shut down.
    func connections() async -> AsyncStream<Void>
}

/// MQTT 5 subscription options.
public struct MQTTSubscriptionOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Retain As Published: a message published with the retain flag keeps it when the broker forwards it live
    /// (the bridge's command subscriptions, so that a retained command is refused whenever it is published, not
    /// only when the broker replays it).
    public static let retainAsPublished = MQTTSubscriptionOptions(rawValue: 1 << 0)
    /// No Local: what this connection publishes is not sent back to it. What the broker holds retained still comes
    /// when the subscription is made, whoever published it (an earlier run of the bridge too).
    public static let noLocal = MQTTSubscriptionOptions(rawValue: 1 << 1)
}

extension MQTTPort {
    /// By default the options are not asked for (a fake port has no broker).
    public func subscribe(_ filter: String, options: MQTTSubscriptionOptions) async {
        await subscribe(filter)
    }

    /// By default every retained message is kept (a fake port has no reconnects).
    public func publish(topic: String, payload: [UInt8], retain: Bool, keep: Bool) async {
        await publish(topic: topic, payload: payload, retain: retain)
    }

    /// By default the connection is never established again: an empty stream.
    public func connections() async -> AsyncStream<Void> {
        AsyncStream { $0.finish() }
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
