internal import Glibc

/// A mutual-exclusion lock on a `pthread_mutex_t`, beside the fields it guards. Not recursive.
///
/// Prefer a lock that owns its state: `Synchronization.Mutex<State>`, or `ConditionMutex<State>` where a
/// thread waits for the state to change.
public final class Lock: @unchecked Sendable {  // the mutex is the synchronisation
    private let pointer: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: pthread_mutex_t())
        pthread_mutex_init(pointer, nil)
    }

    deinit {
        pthread_mutex_destroy(pointer)
        pointer.deallocate()
    }

    public func lock() { pthread_mutex_lock(pointer) }

    public func unlock() { pthread_mutex_unlock(pointer) }

    /// Runs `body` with the lock held.
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(pointer)
        defer { pthread_mutex_unlock(pointer) }
        return try body()
    }
}
