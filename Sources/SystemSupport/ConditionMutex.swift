internal import Glibc

/// A mutex that owns the state it guards, like `Synchronization.Mutex`, together with a condition variable
/// (`pthread_cond_t` on the monotonic clock) to wait until that state says so. Where no thread needs to wait and
/// threads rarely contend, use `Synchronization.Mutex`; state that threads of their own contend for in code the
/// ThreadSanitizer suites run uses this one, whose hand-over ThreadSanitizer sees (DocC Development).
///
/// The state is reachable only inside `withLock` and `wait`, with the mutex held. A thread that changes what a
/// waiter waits for calls `broadcast()` (or `signal()`), inside `withLock` or after it.
public final class ConditionMutex<State: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `state` is read and written only with `mutex` held.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var state: State

    /// A mutex owning `initialState`.
    public init(_ initialState: State) {
        state = initialState
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
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
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the state with the mutex held.
    public func withLock<T, E: Error>(_ body: (inout State) throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// Runs `body` on the state with the mutex held until it returns a value, waiting for a signal between
    /// its runs, and returns that value. With a `timeout` (in seconds, from now) `body` runs once more when it
    /// has passed, and when the system refuses a wait, so that the wait ends; nil when it still returns nil.
    /// `body` may run more often than signals arrive (a wait may return spuriously).
    public func wait<T>(timeout: Double? = nil, until body: (inout State) -> T?) -> T? {
        let deadline = timeout.map(Self.deadline(secondsFromNow:))
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if let result = body(&state) { return result }
            if var time = deadline {
                if pthread_cond_timedwait(condition, mutex, &time) != 0 { return body(&state) }
            } else {
                pthread_cond_wait(condition, mutex)
            }
        }
    }

    /// Wakes one waiter.
    public func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiter.
    public func broadcast() { pthread_cond_broadcast(condition) }

    /// `seconds` from now on the monotonic clock (negative or not finite: now).
    private static func deadline(secondsFromNow seconds: Double) -> timespec {
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
        return timespec(tv_sec: secondsPart, tv_nsec: nanoseconds)
    }
}
