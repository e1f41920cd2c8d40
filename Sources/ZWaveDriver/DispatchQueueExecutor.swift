internal import Dispatch

/// A serial executor over a private dispatch queue: the driver actor runs here, so OpenZWave's
/// blocking calls (RemoveDriver, Destroy) never occupy the cooperative pool.
final class DispatchQueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            job.runSynchronously(on: self.asUnownedSerialExecutor())
        }
    }
}
