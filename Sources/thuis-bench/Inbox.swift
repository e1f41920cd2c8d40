import Foundation
import Synchronization

/// A thread-safe buffer of timestamped items that a task can wait on: producers `put`, the benchmark
/// `next(where:timeout:)`. Items older than `mark` are ignored by waits that pass it.
final class Inbox<Item: Sendable>: Sendable {
    struct Stamped: Sendable {
        let item: Item
        let time: ContinuousClock.Instant
        let index: Int
    }

    private typealias Waiter = (
        from: Int, predicate: @Sendable (Item) -> Bool, continuation: CheckedContinuation<Stamped?, Never>
    )

    private struct State {
        var items: [Stamped] = []
        /// The index of `items[0]` (older items were dropped).
        var base = 0
        var waiters: [Int: Waiter] = [:]
        var nextID = 0

        /// The first item at index ≥ `from` matching `predicate`.
        func first(from: Int, where predicate: (Item) -> Bool) -> Stamped? {
            items[max(0, min(items.count, from - base))...].first { predicate($0.item) }
        }
    }

    private let state = Mutex(State())

    /// Index of the next item to arrive.
    var mark: Int { state.withLock { $0.base + $0.items.count } }

    func put(_ item: Item, at time: ContinuousClock.Instant = .now) {
        let (stamped, resumed): (Stamped, [CheckedContinuation<Stamped?, Never>]) = state.withLock { state in
            let stamped = Stamped(item: item, time: time, index: state.base + state.items.count)
            state.items.append(stamped)
            if state.items.count > 50_000 {  // keep memory bounded during floods
                state.items.removeFirst(25_000)
                state.base += 25_000
            }
            var done: [CheckedContinuation<Stamped?, Never>] = []
            for (id, waiter) in state.waiters where waiter.from <= stamped.index && waiter.predicate(item) {
                state.waiters[id] = nil
                done.append(waiter.continuation)
            }
            return (stamped, done)
        }
        for continuation in resumed { continuation.resume(returning: stamped) }
    }

    /// All items from index `from` on.
    func items(from: Int = 0) -> [Stamped] {
        state.withLock { Array($0.items[max(0, min($0.items.count, from - $0.base))...]) }
    }

    /// The first item at index ≥ `from` matching `predicate`, waiting up to `timeout`; nil on timeout.
    func next(from: Int, timeout: Duration, where predicate: @escaping @Sendable (Item) -> Bool) async -> Stamped? {
        if let found = state.withLock({ $0.first(from: from, where: predicate) }) { return found }
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskGroup(of: Stamped?.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let existing = self.state.withLock { state -> Stamped? in
                        if let found = state.first(from: from, where: predicate) { return found }
                        state.waiters[id] = (from, predicate, continuation)
                        return nil
                    }
                    if let existing { continuation.resume(returning: existing) }
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                let waiter = self.state.withLock { $0.waiters.removeValue(forKey: id) }
                waiter?.continuation.resume(returning: nil)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(returning: nil)
            await group.waitForAll()
            return first
        }
    }
}
