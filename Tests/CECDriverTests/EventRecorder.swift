import CECDriver
import Foundation
import Synchronization
import TestSupport

/// Collects a driver's events (consumed by a task the test owns) so tests can wait for one.
final class EventRecorder: Sendable {
    private let events = Mutex<[CECEvent]>([])

    func append(_ event: CECEvent) { events.withLock { $0.append(event) } }

    var count: Int { events.withLock { $0.count } }

    var all: [CECEvent] { events.withLock { $0 } }

    /// Polls (every 10 ms) for an event at index ≥ `since` that `match` maps to a value.
    func wait<T>(since: Int = 0, timeout: Duration, _ match: (CECEvent) -> T?) async -> T? {
        let deadline = ContinuousClock.now + TestTime.scaled(timeout)
        while ContinuousClock.now < deadline {
            if let hit = all.dropFirst(since).lazy.compactMap(match).first { return hit }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return all.dropFirst(since).lazy.compactMap(match).first
    }
}
