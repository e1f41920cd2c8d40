internal import BridgeCore
internal import FoundationEssentials
import Logging
internal import SystemSupport

/// The object behind libmosquitto's user-data pointer. libmosquitto calls back on its network thread
/// (our `NetworkLoop` thread); each callback copies its data at once and yields it into a bounded
/// AsyncStream or stores it in `state`, and returns: nothing here blocks beyond a short lock, and no bridge or
/// driver work runs on libmosquitto's thread.
final class MosquittoCallbacks: Sendable {
    let inbound: AsyncStream<MQTTInbound>.Continuation
    let events: AsyncStream<LoopEvent>.Continuation
    let maxInboundPayload: Int
    let logger: Logger
    let acks = AckTracker()

    /// What the current connection attempt has seen so far, the drop counts, and what is dropped but not yet
    /// reported.
    fileprivate struct State {
        var established = false
        var refusedCode: Int32?
        var lastErrorLine: String?
        var droppedInboundCount = 0
        var inboundDrops: DroppedMessages
        var outboundDrops: DroppedMessages
        /// Drops ready to be reported (`takeDrops`), and the reporter waiting for them.
        var dropsReady = false
        var dropWaiter: CheckedContinuation<Bool, Never>?
        var finished = false
    }

    /// A pthread mutex (not `Synchronization.Mutex`): the network thread and the reporter contend for it, and
    /// ThreadSanitizer does not see the hand-over of a contended `Mutex` (DocC Development).
    fileprivate let state: ConditionMutex<State>

    init(
        inbound: AsyncStream<MQTTInbound>.Continuation,
        events: AsyncStream<LoopEvent>.Continuation,
        maxInboundPayload: Int,
        limits: (inbound: Int, outbound: Int),
        logger: Logger
    ) {
        self.inbound = inbound
        self.events = events
        self.maxInboundPayload = maxInboundPayload
        self.logger = logger
        state = ConditionMutex(
            State(
                inboundDrops: DroppedMessages(direction: .inbound, limit: limits.inbound),
                outboundDrops: DroppedMessages(direction: .outbound, limit: limits.outbound)))
    }

    // MARK: Per-attempt state (read by the network thread)

    /// Resets the per-attempt state before a connection attempt.
    func beginAttempt() {
        state.withLock {
            $0.established = false
            $0.refusedCode = nil
            $0.lastErrorLine = nil
        }
    }

    /// True once CONNACK 0 arrived for the current attempt.
    var sessionEstablished: Bool { state.withLock { $0.established } }
    /// The CONNACK refusal code of the current attempt, if any.
    var connectionRefusedCode: Int32? { state.withLock { $0.refusedCode } }
    /// The last error-level log line of the current attempt (e.g. the OpenSSL failure).
    var lastError: String? { state.withLock { $0.lastErrorLine } }
    /// Inbound items dropped because the consumer fell behind.
    var droppedInbound: Int { state.withLock { $0.droppedInboundCount } }

    // MARK: Called from the C callbacks (network thread)

    func didConnect(code: Int32) {
        if code == 0 {
            state.withLock { $0.established = true }
            events.yield(.connected)
        } else {
            state.withLock { $0.refusedCode = code }
        }
    }

    func didReceive(topic: String, payloadLength: Int, payload: UnsafeRawPointer?, qos: Int32, retained: Bool) {
        let item: MQTTInbound
        if payloadLength > maxInboundPayload {
            item = .oversized(topic: topic, size: payloadLength, retained: retained)
        } else {
            let bytes: [UInt8]
            if let payload, payloadLength > 0 {
                bytes = Array(UnsafeRawBufferPointer(start: payload, count: payloadLength))
            } else {
                bytes = []
            }
            item = .message(
                MQTTMessage(
                    topic: topic, payload: bytes, retained: retained,
                    qos: MQTTQoS(rawValue: qos) ?? .atMostOnce))
        }
        if case .dropped(let oldest) = inbound.yield(item) {
            let (count, waiter) = state.withLock { state in
                state.droppedInboundCount += 1
                state.inboundDrops.add(oldest.topic)
                return (state.droppedInboundCount, state.dropsAreReady())
            }
            waiter?.resume(returning: true)
            if count == 1 || count % 100 == 0 {
                logger.warning(
                    "MQTT inbound buffer full, dropped the oldest message",
                    metadata: ["dropped_total": "\(count)"])
            }
        }
    }

    // MARK: Drop reports

    /// Counts a message dropped from the offline queue (reported once connected again: `outboundDropsReady`).
    func noteOutboundDrop(_ topic: String) {
        state.withLock { $0.outboundDrops.add(topic) }
    }

    /// Connected again: the offline queue's drops, if any, are ready to be reported.
    func outboundDropsReady() {
        let waiter = state.withLock { state in state.outboundDrops.count > 0 ? state.dropsAreReady() : nil }
        waiter?.resume(returning: true)
    }

    /// Waits until drops are ready to be reported; false once the client is shut down or the task is cancelled
    /// (the bridge stops before its MQTT connection does).
    func waitForDrops() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer: Bool? = state.withLock { state in
                    if state.dropsReady {
                        state.dropsReady = false
                        return true
                    }
                    if state.finished || Task.isCancelled { return false }
                    state.dropWaiter = continuation
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.dropWaiter = nil }
                return state.dropWaiter
            }
            waiter?.resume(returning: false)
        }
    }

    /// The drops ready to be reported, inbound first (the outbound ones once connected), and resets them; nil
    /// when there are none. When both directions have drops, the other is ready again for the next report.
    func takeDrops() -> DroppedMessages? {
        state.withLock { state in
            var taken: DroppedMessages?
            if state.inboundDrops.count > 0 {
                taken = state.inboundDrops
                state.inboundDrops = DroppedMessages(direction: .inbound, limit: state.inboundDrops.limit)
            } else if state.outboundDrops.count > 0, state.established {
                taken = state.outboundDrops
                state.outboundDrops = DroppedMessages(direction: .outbound, limit: state.outboundDrops.limit)
            }
            if state.inboundDrops.count > 0 || (state.outboundDrops.count > 0 && state.established) {
                state.dropsReady = true
            }
            return taken
        }
    }

    func didLog(level: Int32, line: String, isError: Bool) {
        if isError {
            state.withLock { $0.lastErrorLine = line }
            logger.info("libmosquitto: \(line)")
        } else {
            logger.trace("libmosquitto: \(line)")
        }
    }

    /// Ends both streams (after the handle is destroyed) and the drop reports.
    func finish() {
        inbound.finish()
        events.finish()
        let waiter = state.withLock { state in
            state.finished = true
            defer { state.dropWaiter = nil }
            return state.dropWaiter
        }
        waiter?.resume(returning: false)
    }
}

extension MosquittoCallbacks.State {
    /// Marks drops as ready and hands back the reporter waiting for them, if any (to resume outside the lock).
    fileprivate mutating func dropsAreReady() -> CheckedContinuation<Bool, Never>? {
        guard let waiter = dropWaiter else {
            dropsReady = true
            return nil
        }
        dropWaiter = nil
        return waiter
    }
}
