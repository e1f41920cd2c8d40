internal import CMosquitto
public import Logging

/// An MQTT connection over libmosquitto. The actor owns the `mosquitto*`; a private network thread runs
/// `mosquitto_loop` and reconnects with capped exponential backoff; libmosquitto's callbacks (on that
/// thread) reach the actor and the `inbound` stream through the handle's user-data pointer.
///
/// Usage: create it, start consuming `inbound`/`connectionEvents` (any time, they exist from `init`),
/// `subscribe`/`publish` (any time), `try await run()` in a task group, and at the end
/// `await shutdown(final:)`. Cancelling `run()` without `shutdown` drops the connection without a
/// DISCONNECT, so the broker publishes the will.
public actor MQTTClient {
    /// Inbound messages (and oversized-message reports), bounded by `options.inboundBufferSize`
    /// (oldest dropped, counted, logged). Finishes when the client is shut down.
    public nonisolated let inbound: AsyncStream<MQTTInbound>
    /// Connection state changes, bounded (newest 64 kept). Finishes when the client is shut down.
    public nonisolated let connectionEvents: AsyncStream<MQTTConnectionEvent>
    /// The options (the password is never logged).
    public nonisolated let options: MQTTClientOptions
    /// Where dropped messages are counted until they are reported (`droppedMessages(interval:)`).
    nonisolated let drops: MosquittoCallbacks

    enum Phase { case idle, running, stopping, stopped }

    let logger: Logger
    private let loopEvents: AsyncStream<LoopEvent>
    var handle: MosquittoHandle?
    var loop: NetworkLoop?

    /// The network thread's kernel id while it runs (tests read its wake-ups from /proc/self/task).
    var networkThreadID: Int32? { loop?.threadID }
    var phase = Phase.idle
    /// Whether it is connected, and who is told of its connections.
    var connection: ConnectionState
    private var subscriptions = SubscriptionList()
    /// The retained store, the pending clears and the offline queue: what is sent again on connect.
    var outbound = OutboundStore()

    /// Creates the libmosquitto handle (`mosquitto_new`) and applies credentials, will and TLS
    /// (`mosquitto_tls_set` checks that the files exist). Does not connect: see `run()`.
    public init(options: MQTTClientOptions, logger: Logger) throws(MQTTError) {
        self.options = options
        self.logger = logger
        let (inbound, inboundContinuation) = AsyncStream.makeStream(
            of: MQTTInbound.self, bufferingPolicy: .bufferingNewest(max(1, options.inboundBufferSize)))
        let (events, eventsContinuation) = AsyncStream.makeStream(
            of: LoopEvent.self, bufferingPolicy: .bufferingNewest(64))
        let (connection, connectionContinuation) = AsyncStream.makeStream(
            of: MQTTConnectionEvent.self, bufferingPolicy: .bufferingNewest(64))
        self.inbound = inbound
        self.loopEvents = events
        self.connectionEvents = connection
        self.connection = ConnectionState(events: connectionContinuation)
        let callbacks = MosquittoCallbacks(
            inbound: inboundContinuation, events: eventsContinuation,
            maxInboundPayload: options.maxInboundPayloadBytes,
            limits: (max(1, options.inboundBufferSize), max(0, options.offlineQueueLimit)), logger: logger)
        drops = callbacks
        do {
            handle = try MosquittoHandle(options: options, callbacks: callbacks)
        } catch {
            callbacks.finish()
            connectionContinuation.finish()
            throw error
        }
    }

    /// True between a CONNACK 0 and the loss of that connection (as seen by the actor).
    public var isConnected: Bool { connection.isConnected }

    /// Current counters.
    public var statistics: MQTTClientStatistics {
        MQTTClientStatistics(
            droppedInbound: handle?.callbacks.droppedInbound ?? 0, droppedQueued: outbound.droppedQueued,
            queued: outbound.queue.count, retainedTopics: outbound.retained.count,
            connects: connection.count)
    }

    /// The latest retained payload per topic that the client republishes on every connect.
    public var retainedTopics: [String: [UInt8]] { outbound.retained.mapValues(\.payload) }

    /// True when every SUBSCRIBE sent on the current connection has been acknowledged (SUBACK) and the
    /// client is connected. Tests poll this before publishing to a fresh subscription.
    public var subscriptionsAcknowledged: Bool {
        guard connection.isConnected, let handle else { return false }
        subscriptions.pendingMids.subtract(
            handle.callbacks.acks.acknowledgedSubscribes(among: subscriptions.pendingMids))
        return subscriptions.pendingMids.isEmpty
    }

    // MARK: Running

    /// Starts the network thread (connect, `mosquitto_loop`, reconnect with backoff forever) and services
    /// its events until the task is cancelled or `shutdown` completes. On every connect it re-subscribes,
    /// sends pending clears, republishes the retained store and flushes the offline queue.
    /// Throws `MQTTError.alreadyRunning` or `.shutDown` when called twice or after shutdown.
    public func run() async throws {
        guard phase == .idle else { throw phase == .running ? MQTTError.alreadyRunning : MQTTError.shutDown }
        guard let handle else { throw MQTTError.shutDown }
        phase = .running
        let loop = NetworkLoop(handle: handle, options: options)
        self.loop = loop
        logger.info("MQTT connecting", metadata: ["broker": "\(options)"])
        loop.start()
        await withTaskCancellationHandler {
            for await event in loopEvents {
                if case .finished = event { break }
                process(event)
            }
        } onCancel: {
            loop.requestStop(graceful: false)
        }
        loop.requestStop(graceful: false)
        await loop.waitUntilFinished()
        teardown()
    }

    private func process(_ event: LoopEvent) {
        switch event {
        case .connected:
            connection.connected()
            logger.info("MQTT connected", metadata: ["broker": "\(options.host):\(options.port)"])
            connection.events.yield(.connected)
            resendAfterConnect()
            connection.tellWatchers()
            drops.outboundDropsReady()
        case .disconnected(let reason, let retryIn):
            connection.disconnected()
            handle?.callbacks.acks.connectionEnded()
            logger.warning("MQTT connection lost", metadata: ["reason": "\(reason)", "retry_in": "\(retryIn)"])
            connection.events.yield(.disconnected(reason: reason, retryIn: retryIn))
        case .connectFailed(let error, let retryIn):
            connection.disconnected()
            logger.warning("MQTT connect failed", metadata: ["error": "\(error)", "retry_in": "\(retryIn)"])
            connection.events.yield(.connectFailed(error, retryIn: retryIn))
        case .finished:
            break
        }
    }

    private func resendAfterConnect() {
        subscriptions.pendingMids = []
        for subscription in subscriptions.all { sendSubscribe(subscription) }
        for (topic, qos) in outbound.pendingClears {
            _ = send(topic: topic, payload: [], retain: true, qos: qos)
        }
        outbound.pendingClears = [:]
        for (topic, state) in outbound.retained {
            _ = send(topic: topic, payload: state.payload, retain: true, qos: state.qos)
        }
        let queue = outbound.takeQueue()
        for message in queue {
            // A connection lost again meanwhile keeps the rest for the next connect.
            if let error = send(topic: message.topic, payload: message.payload, retain: false, qos: message.qos),
                isNoConnection(error)
            {
                enqueue(message)
            }
        }
        logger.debug(
            "MQTT state resent",
            metadata: [
                "subscriptions": "\(subscriptions.all.count)", "retained": "\(outbound.retained.count)",
                "queued": "\(queue.count)",
            ])
    }

    // MARK: Subscribe / publish

    /// Subscribes (`mosquitto_subscribe_v5`) now if connected, and again after every reconnect. Subscribing to
    /// the same filter twice only updates its options. Throws `.invalidTopic` for a malformed filter.
    ///
    /// `retainAsPublished` (MQTT 5's Retain As Published): a message published with the retain flag keeps it when
    /// the broker forwards it to this live subscription (by default the flag only marks messages the broker held
    /// when the subscription was made), so a retained command is recognised whenever it is published.
    /// `noLocal` (MQTT 5's No Local): what this client publishes is not sent back to it on this subscription (the
    /// messages the broker holds retained still come when the subscription is made, whoever published them).
    public func subscribe(
        _ filter: String, qos: MQTTQoS, retainAsPublished: Bool = false, noLocal: Bool = false
    ) throws(MQTTError) {
        try TopicValidator.validateFilter(filter)
        guard phase == .idle || phase == .running else { throw .shutDown }
        let subscription = SubscriptionList.Subscription(
            filter: filter, qos: qos, retainAsPublished: retainAsPublished, noLocal: noLocal)
        subscriptions.set(subscription)
        if connection.isConnected { sendSubscribe(subscription) }
    }

    /// An element each time the client connects (CONNACK 0), after it has resent its subscriptions, pending
    /// clears, retained store and offline queue; at once when it is connected now. Finishes when the client is
    /// shut down. For publishers of retained messages not kept (`publish(...keep: false)`): the broker may have
    /// lost them.
    public func connections() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        guard phase == .idle || phase == .running else {
            continuation.finish()
            return stream
        }
        connection.watch(continuation)
        return stream
    }

    /// Publishes (`mosquitto_publish`, written by the network thread).
    ///
    /// Retained messages update the retained store (latest payload per topic; an empty payload clears the
    /// topic from the store and is still sent, after the next connect if disconnected) and are republished on
    /// every connect. With `keep` false a retained message is only sent, now if connected: neither stored nor
    /// sent later (its publisher publishes it again on `connections()`); a clear is kept until sent all the same.
    /// Non-retained messages published while disconnected wait in a bounded queue
    /// (`options.offlineQueueLimit`, oldest dropped) flushed on connect.
    /// Throws `.invalidTopic` (empty, `+`/`#`, NUL, > 65535 bytes), `.shutDown`, or `.library` for a
    /// libmosquitto refusal (e.g. payload too large).
    public func publish(
        topic: String, payload: [UInt8], retain: Bool, qos: MQTTQoS, keep: Bool = true
    ) throws(MQTTError) {
        try TopicValidator.validatePublish(topic)
        guard phase == .idle || phase == .running else { throw .shutDown }
        if retain {
            if payload.isEmpty {
                outbound.retained[topic] = nil
                if !connection.isConnected { outbound.pendingClears[topic] = qos }
            } else {
                outbound.retained[topic] = keep ? OutboundStore.StoredState(payload: payload, qos: qos) : nil
                outbound.pendingClears[topic] = nil
            }
            if connection.isConnected, let error = send(topic: topic, payload: payload, retain: true, qos: qos) {
                guard isNoConnection(error) else { throw error }
                if payload.isEmpty { outbound.pendingClears[topic] = qos }
            }
            return
        }
        if connection.isConnected {
            guard let error = send(topic: topic, payload: payload, retain: false, qos: qos) else { return }
            guard isNoConnection(error) else { throw error }
        }
        enqueue(OutboundStore.Queued(topic: topic, payload: payload, qos: qos))
    }

    private func isNoConnection(_ error: MQTTError) -> Bool {
        if case .library(_, let code, _) = error { return code == Mosquitto.noConnection }
        return false
    }

    private func enqueue(_ message: OutboundStore.Queued) {
        let limit = max(0, options.offlineQueueLimit)
        let dropped = outbound.enqueue(message, limit: limit)
        guard !dropped.isEmpty else { return }
        for message in dropped { drops.noteOutboundDrop(message.topic) }
        let overflow = dropped.count
        let total = outbound.droppedQueued
        if total == overflow || total % 100 < overflow {
            logger.warning(
                "MQTT offline queue full, dropped the oldest message",
                metadata: ["dropped_total": "\(total)", "limit": "\(limit)"])
        }
    }

    /// `mosquitto_publish`; returns the error instead of throwing, and the message id through `mid`.
    @discardableResult
    func send(
        topic: String, payload: [UInt8], retain: Bool, qos: MQTTQoS, mid: UnsafeMutablePointer<Int32>? = nil
    ) -> MQTTError? {
        guard let handle else { return .shutDown }
        let rc = payload.withUnsafeBytes { bytes in
            mosquitto_publish(
                handle.pointer, mid, topic, Int32(clamping: bytes.count), bytes.baseAddress,
                qos.rawValue, retain)
        }
        if rc != Mosquitto.success {
            let error = MQTTError.fromReturnCode(rc, function: "mosquitto_publish", detail: "topic \(topic)")
            if rc != Mosquitto.noConnection {
                logger.error("MQTT publish failed", metadata: ["error": "\(error.map { "\($0)" } ?? "")"])
            }
            return error
        }
        return nil
    }

    /// Subscribes to `filters` now, while connected (and again after every reconnect, like `subscribe`), and
    /// returns once the broker acknowledged them all: true, or false when the client is not connected or the
    /// connection ended first. The broker sends a filter's retained messages when it takes the SUBSCRIBE: they
    /// arrive on `inbound` before the SUBACK of any later subscription.
    public func subscribeAcknowledged(_ filters: [String], qos: MQTTQoS) async throws(MQTTError) -> Bool {
        for filter in filters { try TopicValidator.validateFilter(filter) }
        guard phase == .running, connection.isConnected, let handle else { return false }
        var mids: Set<Int32> = []
        for filter in filters {
            let subscription = subscriptions.set(filter, qos: qos)
            guard let mid = sendSubscribe(subscription) else { return false }
            mids.insert(mid)
        }
        return await handle.callbacks.acks.waitForSubscribes(mids)
    }

    @discardableResult
    private func sendSubscribe(_ subscription: SubscriptionList.Subscription) -> Int32? {
        guard let handle else { return nil }
        var mid: Int32 = 0
        var options: Int32 = 0
        if subscription.retainAsPublished { options |= Int32(MQTT_SUB_OPT_RETAIN_AS_PUBLISHED.rawValue) }
        if subscription.noLocal { options |= Int32(MQTT_SUB_OPT_NO_LOCAL.rawValue) }
        let filter = subscription.filter
        let rc = mosquitto_subscribe_v5(handle.pointer, &mid, filter, subscription.qos.rawValue, options, nil)
        if rc == Mosquitto.success {
            subscriptions.pendingMids.insert(mid)
            return mid
        }
        if rc != Mosquitto.noConnection,
            let error = MQTTError.fromReturnCode(rc, function: "mosquitto_subscribe_v5", detail: "filter \(filter)")
        {
            logger.error("MQTT subscribe failed", metadata: ["error": "\(error)"])
        }
        return nil
    }
}
