/// Counters of an `MQTTClient`, for logs, health and tests.
public struct MQTTClientStatistics: Sendable, Hashable {
    /// Inbound items dropped because the consumer of `inbound` fell behind.
    public var droppedInbound: Int
    /// Non-retained messages dropped from the offline queue (oldest first).
    public var droppedQueued: Int
    /// Non-retained messages waiting for the next connect.
    public var queued: Int
    /// Topics in the retained store.
    public var retainedTopics: Int
    /// Completed connects (CONNACK 0) so far.
    public var connects: Int
}
