internal import FoundationEssentials
internal import Logging
internal import SystemSupport

/// The context object OpenZWave's callbacks receive (through the shim's context pointer): it turns
/// each copied notification into a `ZWaveEvent` and yields it, and logs OpenZWave's lines. Never blocks.
final class NotificationSink: @unchecked Sendable {
    // @unchecked Sendable: `direct` and `dropped` are guarded by `lock`; the continuations and the logger
    // are Sendable.

    private let supervised: AsyncStream<ZWaveEvent>.Continuation
    private let published: AsyncStream<ZWaveEvent>.Continuation
    private let logger: Logger
    private let lock = Lock()
    private var direct = false
    private var dropped = 0

    init(
        supervised: AsyncStream<ZWaveEvent>.Continuation, published: AsyncStream<ZWaveEvent>.Continuation,
        logger: Logger
    ) {
        self.supervised = supervised
        self.published = published
        self.logger = logger
    }

    /// From now on events bypass the driver's supervision and go straight to `events` (teardown).
    func deliverDirectly() {
        lock.lock()
        direct = true
        lock.unlock()
    }

    /// Called on OpenZWave's thread with an event copied out of the notification.
    func deliver(_ event: ZWaveEvent) {
        lock.lock()
        let bypass = direct
        lock.unlock()
        let result = bypass ? published.yield(event) : supervised.yield(event)
        if case .dropped(let lost) = result {
            lock.lock()
            dropped += 1
            let total = dropped
            lock.unlock()
            // The first loss and then every 1000th: a stalled consumer must not flood the log.
            if total == 1 || total % 1000 == 0 {
                logger.warning(
                    "Z-Wave event buffer full, oldest events dropped",
                    metadata: ["dropped": "\(total)", "last": "\(lost)"])
            }
        }
    }

    /// Called on OpenZWave's logging thread with one line.
    func log(level: Int32, node: UInt8, line: String) {
        let level = ZWaveLogLevel(code: level)
        if node != 0 {
            logger.log(level: level.loggerLevel, "\(line)", metadata: ["node": "\(node)"], source: "OpenZWave")
        } else {
            logger.log(level: level.loggerLevel, "\(line)", source: "OpenZWave")
        }
    }
}
