internal import FoundationEssentials
internal import Logging
internal import Synchronization

/// The context object OpenZWave's callbacks receive (through the shim's context pointer): it turns
/// each copied notification into a `ZWaveEvent` and yields it, and logs OpenZWave's lines. Never blocks.
final class NotificationSink: Sendable {
    private let supervised: AsyncStream<ZWaveEvent>.Continuation
    private let published: AsyncStream<ZWaveEvent>.Continuation
    private let logger: Logger
    /// Whether events bypass the supervision (teardown).
    private let direct = Mutex(false)

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
        direct.withLock { $0 = true }
    }

    /// Called on OpenZWave's thread with an event copied out of the notification; never blocks, never drops (the
    /// streams are unbounded, see `OpenZWave.events`).
    func deliver(_ event: ZWaveEvent) {
        if direct.withLock({ $0 }) {
            published.yield(event)
        } else {
            supervised.yield(event)
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
