import Foundation
import ZWaveDriver

/// The events a driver published, in order, with their arrival times.
final class EmulatorEventLog: @unchecked Sendable {
    // @unchecked Sendable: `items` is only touched under `lock`.
    private let lock = NSLock()
    private var items: [(time: ContinuousClock.Instant, event: ZWaveEvent)] = []

    func append(_ event: ZWaveEvent) {
        lock.lock()
        items.append((.now, event))
        lock.unlock()
    }

    var all: [ZWaveEvent] {
        lock.lock()
        defer { lock.unlock() }
        return items.map(\.event)
    }

    /// When the first event matching `predicate` arrived.
    func firstTime(where predicate: (ZWaveEvent) -> Bool) -> ContinuousClock.Instant? {
        lock.lock()
        defer { lock.unlock() }
        return items.first { predicate($0.event) }?.time
    }

    /// When each event matching `predicate` arrived.
    func allTimes(where predicate: (ZWaveEvent) -> Bool) -> [ContinuousClock.Instant] {
        lock.lock()
        defer { lock.unlock() }
        return items.filter { predicate($0.event) }.map(\.time)
    }

    func contains(where predicate: (ZWaveEvent) -> Bool) -> Bool { all.contains(where: predicate) }

    func contains(_ event: ZWaveEvent) -> Bool { all.contains(event) }

    func count(_ predicate: (ZWaveEvent) -> Bool) -> Int { all.filter(predicate).count }
}
