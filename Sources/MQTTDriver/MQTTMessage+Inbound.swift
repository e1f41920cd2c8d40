public import BridgeCore

extension MQTTMessage {
    /// The message as BridgeCore's `InboundMessage`.
    public var inboundMessage: InboundMessage {
        InboundMessage(topic: topic, payload: payload, retained: retained)
    }
}
