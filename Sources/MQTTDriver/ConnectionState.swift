/// Whether `MQTTClient` is connected, how often it connected, and who is told: the `connectionEvents` stream and
/// the streams of `connections()`.
struct ConnectionState {
    let events: AsyncStream<MQTTConnectionEvent>.Continuation
    /// True between a CONNACK 0 and the loss of that connection (as seen by the actor).
    private(set) var isConnected = false
    private(set) var count = 0
    /// The streams of `connections()`.
    private var watchers: [AsyncStream<Void>.Continuation] = []

    init(events: AsyncStream<MQTTConnectionEvent>.Continuation) {
        self.events = events
    }

    /// A CONNACK 0 arrived.
    mutating func connected() {
        isConnected = true
        count += 1
    }

    /// The connection is lost (or the client stops).
    mutating func disconnected() {
        isConnected = false
    }

    /// A new `connections()` stream; told at once when connected now.
    mutating func watch(_ watcher: AsyncStream<Void>.Continuation) {
        watchers.append(watcher)
        if isConnected { watcher.yield() }
    }

    /// Tells the `connections()` streams that the client connected (and resent its state).
    func tellWatchers() {
        for watcher in watchers { watcher.yield() }
    }

    /// Finishes every stream (the client is shut down).
    mutating func finish() {
        events.finish()
        for watcher in watchers { watcher.finish() }
        watchers = []
    }
}
