/// Connection state changes of an `MQTTClient`, in the order they happened.
public enum MQTTConnectionEvent: Sendable {
    /// The broker accepted the connection (CONNACK 0). Subscriptions, the retained store and the offline
    /// queue are (re)sent right after this event is emitted.
    case connected
    /// An established connection was lost (or closed by the broker); the client retries after `retryIn`.
    case disconnected(reason: String, retryIn: Duration)
    /// A connection attempt failed (broker down, TLS verification failed, credentials refused...); the
    /// client retries after `retryIn`, forever, with capped exponential backoff.
    case connectFailed(MQTTError, retryIn: Duration)
}

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
