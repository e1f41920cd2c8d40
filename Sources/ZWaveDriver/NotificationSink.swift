internal import FoundationEssentials
internal import Logging
internal import Synchronization

/// The context object OpenZWave's callbacks receive (through the shim's context pointer): it turns
/// each copied notification into a `ZWaveEvent` and yields it, and logs OpenZWave's lines. Never blocks.
final class NotificationSink: Sendable {
    private let supervised: AsyncStream<ZWaveEvent>.Continuation
    private let published: AsyncStream<ZWaveEvent>.Continuation
    private let logger: Logger
    /// Whether events bypass the supervision (teardown), and how many were dropped.
    private let state = Mutex((direct: false, dropped: 0))

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
        state.withLock { $0.direct = true }
    }

    /// Called on OpenZWave's thread with an event copied out of the notification.
    func deliver(_ event: ZWaveEvent) {
        let bypass = state.withLock { $0.direct }
        let result = bypass ? published.yield(event) : supervised.yield(event)
        if case .dropped(let lost) = result {
            let total = state.withLock {
                $0.dropped += 1
                return $0.dropped
            }
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
