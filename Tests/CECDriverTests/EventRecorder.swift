import CECDriver
import Foundation

/// Collects a driver's events (consumed by a task the test owns) so tests can wait for one.
final class EventRecorder: @unchecked Sendable {
    // @unchecked Sendable: `events` is guarded by `lock`.
    private let lock = NSLock()
    private var events: [CECEvent] = []

    func append(_ event: CECEvent) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return events.count
    }

    var all: [CECEvent] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }

    /// Polls (every 10 ms) for an event at index ≥ `since` that `match` maps to a value.
    func wait<T>(since: Int = 0, timeout: Duration, _ match: (CECEvent) -> T?) async -> T? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let hit = all.dropFirst(since).lazy.compactMap(match).first { return hit }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return all.dropFirst(since).lazy.compactMap(match).first
    }
}
