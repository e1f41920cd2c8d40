import Foundation

/// A thread-safe buffer of timestamped items that a task can wait on: producers `put`, the benchmark
/// `next(where:timeout:)`. Items older than `mark` are ignored by waits that pass it.
final class Inbox<Item: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `items`, `waiters` and `nextID` are only touched while holding `lock`.
    struct Stamped: Sendable {
        let item: Item
        let time: ContinuousClock.Instant
        let index: Int
    }

    private let lock = NSLock()
    private var items: [Stamped] = []
    private var base = 0
    private var waiters: [Int: (from: Int, predicate: @Sendable (Item) -> Bool, continuation: CheckedContinuation<Stamped?, Never>)] = [:]
    private var nextID = 0

    /// Index of the next item to arrive.
    var mark: Int { lock.withLock { base + items.count } }

    func put(_ item: Item, at time: ContinuousClock.Instant = .now) {
        let (stamped, resumed): (Stamped, [CheckedContinuation<Stamped?, Never>]) = lock.withLock {
            let stamped = Stamped(item: item, time: time, index: base + items.count)
            items.append(stamped)
            if items.count > 50_000 {  // keep memory bounded during floods
                items.removeFirst(25_000)
                base += 25_000
            }
            var done: [CheckedContinuation<Stamped?, Never>] = []
            for (id, waiter) in waiters where waiter.from <= stamped.index && waiter.predicate(item) {
                waiters[id] = nil
                done.append(waiter.continuation)
            }
            return (stamped, done)
        }
        for continuation in resumed { continuation.resume(returning: stamped) }
    }

    /// All items from index `from` on.
    func items(from: Int = 0) -> [Stamped] {
        lock.withLock { Array(items[max(0, min(items.count, from - base))...]) }
    }

    /// The first item at index ≥ `from` matching `predicate`, waiting up to `timeout`; nil on timeout.
    func next(from: Int, timeout: Duration, where predicate: @escaping @Sendable (Item) -> Bool) async -> Stamped? {
        let id: Int
        if let found: Stamped = lock.withLock({
            items[max(0, min(items.count, from - base))...].first { predicate($0.item) }
        }) {
            return found
        }
        id = lock.withLock { nextID += 1; return nextID }
        return await withTaskGroup(of: Stamped?.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let existing: Stamped? = self.lock.withLock {
                        if let found = self.items[max(0, min(self.items.count, from - self.base))...].first(where: { predicate($0.item) }) {
                            return found
                        }
                        self.waiters[id] = (from, predicate, continuation)
                        return nil
                    }
                    if let existing { continuation.resume(returning: existing) }
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                let waiter = self.lock.withLock { self.waiters.removeValue(forKey: id) }
                waiter?.continuation.resume(returning: nil)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            let waiter = lock.withLock { waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(returning: nil)
            await group.waitForAll()
            return first
        }
    }
}
