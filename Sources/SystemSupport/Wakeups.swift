internal import Synchronization

/// The wake-ups of an event loop that has nothing to do on a timer: `wake()` from anywhere (an event happened),
/// and at most one deadline (`wake(at:)`, a one-shot timer that replaces the previous one). The loop iterates
/// `stream`, which coalesces wake-ups that arrive while it works, and ends when the task iterating it is
/// cancelled; `finish()` cancels the timer and ends the stream.
///
///     let wakeups = Wakeups()
///     defer { wakeups.finish() }
///     for await _ in wakeups.stream {
///         doWhatIsDue()
///         wakeups.wake(at: nextDeadline)
///     }
public final class Wakeups: Sendable {
    public let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let timer = Mutex<(deadline: ContinuousClock.Instant, task: Task<Void, Never>)?>(nil)

    /// Starts with one wake-up pending, so the loop's first pass runs at once.
    public init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        continuation.yield()
    }

    /// Something happened: the loop runs once more (once, however many wake-ups arrive meanwhile).
    public func wake() { continuation.yield() }

    /// Wakes the loop at `deadline` (nil: no timer). A deadline already armed is kept; another one replaces it.
    public func wake(at deadline: ContinuousClock.Instant?) {
        let continuation = continuation
        let replaced: Task<Void, Never>? = timer.withLock { timer in
            guard timer?.deadline != deadline else { return nil }
            let old = timer?.task
            timer = deadline.map { deadline in
                (
                    deadline,
                    Task {
                        guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
                        continuation.yield()
                    }
                )
            }
            return old
        }
        replaced?.cancel()
    }

    /// Cancels the timer and ends the stream.
    public func finish() {
        wake(at: nil)
        continuation.finish()
    }
}
