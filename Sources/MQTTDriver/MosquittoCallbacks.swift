internal import FoundationEssentials
internal import SystemSupport
import Logging

/// The object behind libmosquitto's user-data pointer. libmosquitto calls back on its network thread
/// (our `NetworkLoop` thread); each callback copies its data at once and yields it into a bounded
/// AsyncStream or stores it behind `lock`. Nothing here blocks beyond a short lock, except that a message's
/// delivery also runs the work of the consumers that prefer `inboundExecutor`.
final class MosquittoCallbacks: @unchecked Sendable {  // mutable state guarded by `lock`; continuations are thread-safe
    let inbound: AsyncStream<MQTTInbound>.Continuation
    let events: AsyncStream<LoopEvent>.Continuation
    let maxInboundPayload: Int
    let logger: Logger
    let acks = AckTracker()
    /// Runs the consumers of `inbound` that prefer it inside the delivery of each message.
    let inboundExecutor = InboundExecutor()

    private let lock = Lock()
    private var established = false
    private var refusedCode: Int32?
    private var lastErrorLine: String?
    private var droppedInboundCount = 0

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
        lock.withLock {
            established = false
            refusedCode = nil
            lastErrorLine = nil
        }
    }

    /// True once CONNACK 0 arrived for the current attempt.
    var sessionEstablished: Bool { lock.withLock { established } }
    /// The CONNACK refusal code of the current attempt, if any.
    var connectionRefusedCode: Int32? { lock.withLock { refusedCode } }
    /// The last error-level log line of the current attempt (e.g. the OpenSSL failure).
    var lastError: String? { lock.withLock { lastErrorLine } }
    /// Inbound items dropped because the consumer fell behind.
    var droppedInbound: Int { lock.withLock { droppedInboundCount } }

    // MARK: Called from the C callbacks (network thread)

    func didConnect(code: Int32) {
        if code == 0 {
            lock.withLock { established = true }
            events.yield(.connected)
        } else {
            lock.withLock { refusedCode = code }
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
            item = .message(MQTTMessage(topic: topic, payload: bytes, retained: retained,
                                        qos: MQTTQoS(rawValue: qos) ?? .atMostOnce))
        }
        var result: AsyncStream<MQTTInbound>.Continuation.YieldResult?
        inboundExecutor.deliver { result = inbound.yield(item) }
        if case .dropped = result {
            let count = lock.withLock {
                droppedInboundCount += 1
                return droppedInboundCount
            }
            if count == 1 || count % 100 == 0 {
                logger.warning("MQTT inbound buffer full, dropped the oldest message",
                               metadata: ["dropped_total": "\(count)"])
            }
        }
    }

    func didLog(level: Int32, line: String, isError: Bool) {
        if isError {
            lock.withLock { lastErrorLine = line }
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
