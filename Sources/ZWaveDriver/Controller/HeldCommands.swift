internal import Synchronization

/// Device commands waiting for a controller command (inclusion, exclusion) to end, since OpenZWave sends nothing
/// else meanwhile (`ControllerSessions.waitUntilControllerIdle`).
///
/// Each waits until `releaseAll()` (the controller command ended) or until its own task is cancelled (the bridge
/// stops), which resumes it at once: the cancellation handler runs on the cancelling thread, outside the actor,
/// so the waiting continuations are kept in a `Mutex`.
@ZWaveBackendActor
final class HeldCommands {
    private struct State {
        var nextID = 0
        var waiting: [Int: CheckedContinuation<Bool, Never>] = [:]
        /// Waits whose task was cancelled before their continuation was stored.
        var cancelled: Set<Int> = []
    }

    private nonisolated let state = Mutex(State())

    nonisolated init() {}

    /// How many commands wait now.
    var count: Int { state.withLock { $0.waiting.count } }

    /// Waits until released (`true`) or until the task is cancelled (`false`, at once).
    func wait() async -> Bool {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let released = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { state in
                    if state.cancelled.remove(id) != nil {
                        continuation.resume(returning: false)
                    } else {
                        state.waiting[id] = continuation
                    }
                }
            }
        } onCancel: {
            state.withLock { state in
                if let continuation = state.waiting.removeValue(forKey: id) {
                    continuation.resume(returning: false)
                } else {
                    state.cancelled.insert(id)
                }
            }
        }
        state.withLock { _ = $0.cancelled.remove(id) }  // cancelled after it was released
        return released
    }

    /// Releases every held command (`true`).
    func releaseAll() {
        let waiting = state.withLock { state in
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume(returning: true) }
    }
}
