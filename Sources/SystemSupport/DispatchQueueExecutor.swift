internal import Dispatch
internal import Synchronization

/// A serial executor over a private dispatch queue. A driver actor that owns a C handle uses it as its
/// `unownedExecutor`, so the library's blocking calls (libcec_open, OpenZWave's RemoveDriver) run on
/// that queue's thread and never occupy the cooperative pool.
public final class DispatchQueueExecutor: SerialExecutor {
    private let queue: DispatchQueue
    private let enqueued = Atomic<Int>(0)

    /// How many jobs the executor has been given so far: how often its actor woke up (tests read it).
    public var jobsEnqueued: Int { enqueued.load(ordering: .relaxed) }

    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        enqueued.add(1, ordering: .relaxed)
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Runs a blocking closure on the queue, for work outside any actor (e.g. adapter detection).
    public func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }
}
