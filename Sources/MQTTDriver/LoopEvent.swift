/// What the network thread tells the `MQTTClient` actor (through a bounded AsyncStream).
enum LoopEvent: Sendable {
    /// CONNACK 0 arrived.
    case connected
    /// An established connection ended.
    case disconnected(reason: String, retryIn: Duration)
    /// An attempt failed before CONNACK 0.
    case connectFailed(MQTTError, retryIn: Duration)
    /// The network thread has exited; it makes no more libmosquitto calls.
    case finished
}
