import Foundation
import Synchronization
import ZWaveDriver

/// The events a driver published, in order, with their arrival times.
final class EmulatorEventLog: Sendable {
    private let items = Mutex<[(time: ContinuousClock.Instant, event: ZWaveEvent)]>([])

    func append(_ event: ZWaveEvent) { items.withLock { $0.append((.now, event)) } }

    var all: [ZWaveEvent] { items.withLock { $0.map(\.event) } }

    /// When the first event matching `predicate` arrived.
    func firstTime(where predicate: (ZWaveEvent) -> Bool) -> ContinuousClock.Instant? {
        items.withLock { $0.first { predicate($0.event) }?.time }
    }

    /// When each event matching `predicate` arrived.
    func allTimes(where predicate: (ZWaveEvent) -> Bool) -> [ContinuousClock.Instant] {
        items.withLock { $0.filter { predicate($0.event) }.map(\.time) }
    }

    func contains(where predicate: (ZWaveEvent) -> Bool) -> Bool { all.contains(where: predicate) }

    func contains(_ event: ZWaveEvent) -> Bool { all.contains(event) }

    func count(_ predicate: (ZWaveEvent) -> Bool) -> Int { all.filter(predicate).count }
}
