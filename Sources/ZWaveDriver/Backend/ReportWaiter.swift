/// Counts the reports of each value and lets a command wait for the next one: a command is confirmed by a
/// report newer than the count (generation) read before it was sent.
///
/// Owns the generations, the waiters and their timeouts. A report counts once it is attributed to its value
/// (after any `DeviceQuirk`), so a waiter sees the endpoint the report belongs to.
@ZWaveBackendActor
final class ReportWaiter {
    /// How long `wait` waits unless told otherwise (a command's confirmation time).
    let timeout: Duration
    /// Per value: how many reports arrived.
    private var generations: [ZWaveValueKey: Int] = [:]
    /// Per value: who waits for a report newer than `after`.
    private var waiters: [ZWaveValueKey: [(id: Int, after: Int, continuation: CheckedContinuation<Bool, Never>)]] = [:]
    private var nextWaiterID = 0

    nonisolated init(timeout: Duration) {
        self.timeout = timeout
    }

    /// How many reports of `key` arrived so far.
    func generation(of key: ZWaveValueKey) -> Int {
        generations[key, default: 0]
    }

    /// A report of `key` arrived: its generation goes up and the waiters it satisfies resume (with `true`).
    func reportArrived(_ key: ZWaveValueKey) {
        let generation = generations[key, default: 0] + 1
        generations[key] = generation
        guard var list = waiters[key] else { return }
        list.removeAll { waiter in
            guard generation > waiter.after else { return false }
            waiter.continuation.resume(returning: true)
            return true
        }
        waiters[key] = list.isEmpty ? nil : list
    }

    /// Waits until a report of `key` newer than generation `after` arrives; `false` after `timeout` (by default
    /// the confirmation time) or when woken by `wakeWaiters`/`wakeAll`.
    func wait(for key: ZWaveValueKey, after: Int, timeout: Duration? = nil) async -> Bool {
        if generations[key, default: 0] > after { return true }
        let id = nextWaiterID
        nextWaiterID += 1
        let timeout = timeout ?? self.timeout
        return await withTaskGroup(of: Void.self) { group in
            group.addTask {
                try? await Task.sleep(for: timeout)
                await self.expire(key, id: id)
            }
            let confirmed = await withCheckedContinuation { continuation in
                waiters[key, default: []].append((id, after, continuation))
            }
            group.cancelAll()
            return confirmed
        }
    }

    /// Ends the waits for `node`'s values (`false`): it is dead, no report will come.
    func wakeWaiters(of node: NodeID) {
        for key in waiters.keys where key.node == node {
            for waiter in waiters[key] ?? [] { waiter.continuation.resume(returning: false) }
            waiters[key] = nil
        }
    }

    /// Ends every wait (`false`): the adapter is lost.
    func wakeAll() {
        for list in waiters.values {
            for waiter in list { waiter.continuation.resume(returning: false) }
        }
        waiters.removeAll()
    }

    private func expire(_ key: ZWaveValueKey, id: Int) {
        guard var list = waiters[key], let index = list.firstIndex(where: { $0.id == id }) else { return }
        list.remove(at: index).continuation.resume(returning: false)
        waiters[key] = list.isEmpty ? nil : list
    }
}

/// A Set handed to OpenZWave, to be confirmed by the device: the value whose report confirms it and that value's
/// generation (`ReportWaiter`) before the Set.
struct PendingConfirmation: Sendable {
    let key: ZWaveValueKey
    let before: Int
}
