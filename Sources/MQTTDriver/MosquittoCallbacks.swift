internal import FoundationEssentials
import Logging
internal import Synchronization

/// The object behind libmosquitto's user-data pointer. libmosquitto calls back on its network thread
/// (our `NetworkLoop` thread); each callback copies its data at once and yields it into a bounded
/// AsyncStream or stores it in `state`. Nothing here blocks beyond a short lock, except that a message's
/// delivery also runs the work of the consumers that prefer `inboundExecutor`.
final class MosquittoCallbacks: Sendable {
    let inbound: AsyncStream<MQTTInbound>.Continuation
    let events: AsyncStream<LoopEvent>.Continuation
    let maxInboundPayload: Int
    let logger: Logger
    let acks = AckTracker()
    /// Runs the consumers of `inbound` that prefer it inside the delivery of each message.
    let inboundExecutor = InboundExecutor()

    /// What the current connection attempt has seen so far, and the inbound drop count.
    private struct State {
        var established = false
        var refusedCode: Int32?
        var lastErrorLine: String?
        var droppedInboundCount = 0
    }

    private let state = Mutex(State())

    init(
        inbound: AsyncStream<MQTTInbound>.Continuation,
        events: AsyncStream<LoopEvent>.Continuation,
        maxInboundPayload: Int,
        logger: Logger
    ) {
        self.inbound = inbound
        self.events = events
        self.maxInboundPayload = maxInboundPayload
        self.logger = logger
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
        var result: AsyncStream<MQTTInbound>.Continuation.YieldResult?
        inboundExecutor.deliver { result = inbound.yield(item) }
        if case .dropped = result {
            let count = state.withLock {
                $0.droppedInboundCount += 1
                return $0.droppedInboundCount
            }
            if count == 1 || count % 100 == 0 {
                logger.warning(
                    "MQTT inbound buffer full, dropped the oldest message",
                    metadata: ["dropped_total": "\(count)"])
            }
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

    /// Ends both streams (after the handle is destroyed).
    func finish() {
        inbound.finish()
        events.finish()
    }
}
