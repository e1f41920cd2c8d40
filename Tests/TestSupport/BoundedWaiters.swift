import Testing

/// The waiters of a test double (a message published, a number of commands arrived), each bounded: one that is
/// still waiting `TestTime.scaled(limit)` after it began is resumed with an issue recorded, so a regression fails
/// the test instead of hanging the suite. Kept by an actor, which calls ``resume(with:)`` on each new value and
/// ``expire(_:)`` from the task ``add(limit:what:matches:continuation:expire:)`` starts.
public struct BoundedWaiters<Value: Sendable>: Sendable {
    private var entries:
        [(id: Int, matches: @Sendable (Value) -> Bool, continuation: CheckedContinuation<Void, Never>)] =
            []
    private var nextID = 0

    public init() {}

    /// Adds a waiter and starts the task that calls `expire` with its id once `limit` (scaled) has passed.
    public mutating func add(
        limit: Duration, matches: @escaping @Sendable (Value) -> Bool,
        continuation: CheckedContinuation<Void, Never>, expire: @escaping @Sendable (Int) async -> Void
    ) {
        nextID += 1
        let id = nextID
        entries.append((id, matches, continuation))
        Task {
            try? await Task.sleep(for: TestTime.scaled(limit))
            await expire(id)
        }
    }

    /// Resumes every waiter that `value` satisfies.
    public mutating func resume(with value: Value) {
        entries.removeAll { entry in
            guard entry.matches(value) else { return false }
            entry.continuation.resume()
            return true
        }
    }

    /// Resumes waiter `id` if it is still waiting, recording `what` as an issue (it waited past its limit).
    public mutating func expire(_ id: Int, what: @autoclosure () -> String) {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
        Issue.record("waited past the limit for \(what())")
        entries.remove(at: index).continuation.resume()
    }
}
