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
