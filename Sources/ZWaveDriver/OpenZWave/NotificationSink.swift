internal import FoundationEssentials
internal import Logging
internal import Synchronization

/// The context object OpenZWave's callbacks receive (through the shim's context pointer): it turns
/// each copied notification into a `ZWaveEvent` and yields it, and logs OpenZWave's lines. Never blocks.
///
/// Owns the driver's two event streams: what the callbacks report (for the supervision) and what the driver
/// publishes.
final class NotificationSink: Sendable {
    /// What the driver publishes (`OpenZWave.events`), and what the callbacks report for the driver's supervision
    /// first (`OpenZWave.pump()`); both unbounded, single consumer.
    let events: AsyncStream<ZWaveEvent>
    let supervisedEvents: AsyncStream<ZWaveEvent>
    private let supervised: AsyncStream<ZWaveEvent>.Continuation
    private let published: AsyncStream<ZWaveEvent>.Continuation
    private let logger: Logger
    /// Whether events bypass the supervision (teardown).
    private let direct = Mutex(false)

    init(logger: Logger) {
        (events, published) = AsyncStream.makeStream(of: ZWaveEvent.self, bufferingPolicy: .unbounded)
        (supervisedEvents, supervised) = AsyncStream.makeStream(of: ZWaveEvent.self, bufferingPolicy: .unbounded)
        self.logger = logger
    }

    /// Publishes `event` on `events` (the driver's supervision has seen it, or made it).
    func publish(_ event: ZWaveEvent) {
        published.yield(event)
    }

    /// Ends both streams (the driver stopped).
    func finish() {
        supervised.finish()
        published.finish()
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
