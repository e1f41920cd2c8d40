internal import Glibc

/// A mutual-exclusion lock on a `pthread_mutex_t` (the daemon links FoundationEssentials only, which has no
/// `NSLock`). Not recursive.
public final class Lock: @unchecked Sendable {  // the mutex is the synchronisation
    /// The mutex, for a `Condition`'s waits.
    let pointer: UnsafeMutablePointer<pthread_mutex_t>

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

/// A lock with a condition variable (`pthread_cond_t` on the monotonic clock), like `NSCondition`: `wait`
/// must be called with the lock held, and may return spuriously, so callers wait in a loop on their predicate.
public final class Condition: @unchecked Sendable {  // the mutex is the synchronisation
    private let mutex = Lock()
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    public func lock() { mutex.lock() }

    public func unlock() { mutex.unlock() }

    /// Runs `body` with the lock held.
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T { try mutex.withLock(body) }

    /// Waits for a signal (lock held).
    public func wait() { pthread_cond_wait(condition, mutex.pointer) }

    /// Waits for a signal until `deadline` (lock held); false once the deadline has passed, and for a wait the
    /// system refused (an error other than a timeout), so that a caller's loop ends instead of spinning.
    public func wait(until deadline: Deadline) -> Bool {
        var time = deadline.time
        return pthread_cond_timedwait(condition, mutex.pointer, &time) == 0
    }

    public func signal() { pthread_cond_signal(condition) }

    public func broadcast() { pthread_cond_broadcast(condition) }

    /// A point in time on the monotonic clock, for `wait(until:)`.
    public struct Deadline: Sendable {
        fileprivate let time: timespec

        /// `seconds` from now (negative or not finite: now).
        public init(secondsFromNow seconds: Double) {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let delta = seconds.isFinite ? min(max(0, seconds), 1e9) : 0
            let whole = Int(delta)
            var nanoseconds = now.tv_nsec + Int((delta - Double(whole)) * 1e9)
            var secondsPart = now.tv_sec + whole
            if nanoseconds >= 1_000_000_000 {
                nanoseconds -= 1_000_000_000
                secondsPart += 1
            }
            time = timespec(tv_sec: secondsPart, tv_nsec: nanoseconds)
        }
    }
}
