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
