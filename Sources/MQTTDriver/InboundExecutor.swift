internal import FoundationEssentials
internal import Glibc
internal import Synchronization

/// A task executor that runs a message's consumer on the MQTT network thread, inside the delivery of that
/// message, instead of waking a pool thread for it.
///
/// A task that prefers it (`group.addTask(executorPreference: client.inboundExecutor)`) and waits on
/// `MQTTClient.inbound` is resumed by the network thread's message callback. Jobs enqueued on that thread
/// while it delivers a message are run there before the callback returns, so a message is handled
/// without a thread hand-off: the `/set` → wire path saves one thread wake-up.
///
/// Every other job (enqueued from another thread, or outside a delivery, e.g. after the task awaited an
/// actor with its own executor, or after the network thread stopped) goes to the global concurrent
/// executor at once, so nothing waits for the next message and nothing hangs when the connection is down.
///
/// Jobs run inside libmosquitto's message callback, with its callback lock held: they may publish,
/// subscribe and unsubscribe (libmosquitto queues those packets for the network thread), and they must not
/// block waiting for the network thread.
public final class InboundExecutor: TaskExecutor {
    /// The thread delivering a message now, if any, and the jobs enqueued on it meanwhile.
    private struct State {
        var delivering: pthread_t?
        var jobs: [UnownedJob] = []
    }

    private let state = Mutex(State())

    init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let here = pthread_self()
        let kept = state.withLock { state in
            guard let delivering = state.delivering, pthread_equal(delivering, here) != 0 else { return false }
            state.jobs.append(unowned)
            return true
        }
        if !kept { globalConcurrentExecutor.enqueue(ExecutorJob(unowned)) }
    }

    /// True while this thread delivers a message: a job enqueued now runs before the delivery ends.
    var isDeliveringOnCurrentThread: Bool {
        let here = pthread_self()
        return state.withLock { $0.delivering.map { pthread_equal($0, here) != 0 } ?? false }
    }

    /// Runs `body` (which yields a message to `inbound`), then every job enqueued on this thread meanwhile,
    /// until none is left. Called on the network thread only, never nested.
    func deliver(_ body: () -> Void) {
        let thread = pthread_self()
        state.withLock { $0.delivering = thread }
        body()
        while true {
            let ready = state.withLock { state in
                let ready = state.jobs
                state.jobs.removeAll(keepingCapacity: true)
                if ready.isEmpty { state.delivering = nil }
                return ready
            }
            if ready.isEmpty { return }
            for job in ready { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
