public import BridgeCore

/// An in-memory `MQTTPort` that records every publish and subscription, for tests of the pure core.
public actor FakeMQTTPort: MQTTPort {
    public struct Published: Sendable, Equatable {
        public let topic: String
        public let payload: String
        public let retain: Bool
        public init(topic: String, payload: String, retain: Bool) {
            self.topic = topic
            self.payload = payload
            self.retain = retain
        }
    }

    public private(set) var published: [Published] = []
    public private(set) var subscriptions: [String] = []
    private var waiters = BoundedWaiters<Published>()

    public init() {}

    public func publish(topic: String, payload: [UInt8], retain: Bool) async {
        let message = Published(topic: topic, payload: String(decoding: payload, as: UTF8.self), retain: retain)
        published.append(message)
        waiters.resume(with: message)
    }

    /// Waits until a message on `topic` (with `payload`, when given) has been published, now or earlier (from
    /// the `after`-th message on); at most `limit` (scaled), then the test has an issue recorded and goes on.
    public func waitFor(_ topic: String, payload: String? = nil, after: Int = 0, limit: Duration = .seconds(30)) async {
        let matches: @Sendable (Published) -> Bool = { $0.topic == topic && (payload == nil || $0.payload == payload) }
        if published.dropFirst(after).contains(where: matches) { return }
        await withCheckedContinuation { continuation in
            waiters.add(limit: limit, matches: matches, continuation: continuation) { id in
                await self.expire(id, topic: topic, payload: payload)
            }
        }
    }

    private func expire(_ id: Int, topic: String, payload: String?) {
        waiters.expire(id, what: "a message on \(topic)\(payload.map { " (\($0))" } ?? "")")
    }

    public func subscribe(_ filter: String) async { subscriptions.append(filter) }

    /// The options each filter was subscribed with (none recorded for a plain `subscribe`).
    public private(set) var subscriptionOptions: [String: MQTTSubscriptionOptions] = [:]
    private var connectionWatchers: [AsyncStream<Void>.Continuation] = []

    public func subscribe(_ filter: String, options: MQTTSubscriptionOptions) async {
        subscriptions.append(filter)
        subscriptionOptions[filter] = options
    }

    private var watcherWaiters: [CheckedContinuation<Void, Never>] = []

    /// A stream that yields on each `reconnect()`.
    public func connections() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        connectionWatchers.append(continuation)
        for waiter in watcherWaiters { waiter.resume() }
        watcherWaiters = []
        return stream
    }

    /// As if the connection to the broker had been established again (after the broker lost what it held): once
    /// someone watches `connections()`, each watcher is told.
    public func reconnect() async {
        if connectionWatchers.isEmpty { await withCheckedContinuation { watcherWaiters.append($0) } }
        for watcher in connectionWatchers { watcher.yield() }
    }

    /// The latest retained payload per topic (what a broker would hold).
    public var retained: [String: String] {
        var store: [String: String] = [:]
        for message in published where message.retain {
            store[message.topic] = message.payload.isEmpty ? nil : message.payload
        }
        return store
    }

    /// Every message published to `topic`, in order.
    public func messages(on topic: String) -> [Published] { published.filter { $0.topic == topic } }

    /// The events published on `topic` parsed as JSON.
    public func events(on topic: String) -> [JSONValue] {
        messages(on: topic).compactMap { try? JSONValue.parse(Array($0.payload.utf8)) }
    }

    public func reset() { published.removeAll() }
}
