public import BridgeCore
internal import Logging

extension MQTTClient: MQTTPort {
    /// `MQTTPort`: publishes with `options.defaultQoS`; an invalid topic or a shut-down client is logged
    /// (the bridge validates its topics at load time) and the message dropped.
    public func publish(topic: String, payload: [UInt8], retain: Bool) async {
        do {
            try publish(topic: topic, payload: payload, retain: retain, qos: options.defaultQoS)
        } catch {
            logger.error("MQTT publish rejected", metadata: ["topic": "\(topic)", "error": "\(error)"])
        }
    }

    /// `MQTTPort`: subscribes with `options.defaultQoS` (re-subscribed after every reconnect).
    public func subscribe(_ filter: String) async {
        await subscribe(filter, retainAsPublished: false)
    }

    /// `MQTTPort`: subscribes with `options.defaultQoS` and MQTT 5's Retain As Published when asked.
    public func subscribe(_ filter: String, retainAsPublished: Bool) async {
        do {
            try subscribe(filter, qos: options.defaultQoS, retainAsPublished: retainAsPublished)
        } catch {
            logger.error("MQTT subscribe rejected", metadata: ["filter": "\(filter)", "error": "\(error)"])
        }
    }

    /// `inbound` as the bridge's messages (single consumer, like `inbound`).
    public nonisolated var inboundMessages: AsyncMapSequence<AsyncStream<MQTTInbound>, InboundMessage> {
        inbound.map { $0.inboundMessage }
    }
}

extension MQTTInbound {
    /// The item as BridgeCore's `InboundMessage`: an oversized message keeps its topic and size, its payload
    /// unread (the bridge rejects it by its size).
    public var inboundMessage: InboundMessage {
        switch self {
        case .message(let message):
            InboundMessage(topic: message.topic, payload: message.payload, retained: message.retained)
        case .oversized(let topic, let size, let retained):
            InboundMessage(topic: topic, payload: [], retained: retained, oversize: size)
        }
    }
}
