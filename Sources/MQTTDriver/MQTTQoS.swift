/// MQTT quality-of-service level of a publish or subscription.
public enum MQTTQoS: Int32, Sendable, Hashable, CaseIterable {
    /// Fire and forget.
    case atMostOnce = 0
    /// Acknowledged with PUBACK; may be delivered more than once.
    case atLeastOnce = 1
    /// Four-way handshake; delivered exactly once.
    case exactlyOnce = 2
}
