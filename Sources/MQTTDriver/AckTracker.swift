internal import FoundationEssentials
internal import Synchronization

/// Message ids acknowledged by the broker (PUBACK/PUBCOMP and SUBACK), written by libmosquitto's network
/// thread and read by the actor. Only the latest `capacity` ids of each kind are kept.
final class AckTracker: Sendable {
    private struct State {
        var published: [Int32] = []
        var subscribed: [Int32] = []
        /// Callers waiting for the SUBACKs of these message ids (true), or for the connection's end (false).
        var subscribeWaiters: [(mids: Set<Int32>, continuation: CheckedContinuation<Bool, Never>)] = []
    }

    private let state = Mutex(State())
    private let capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    func publishAcknowledged(_ mid: Int32) {
        state.withLock { Self.append(mid, to: &$0.published, capacity: capacity) }
    }

    func subscribeAcknowledged(_ mid: Int32) {
        let ready = state.withLock { state in
            Self.append(mid, to: &state.subscribed, capacity: capacity)
            let subscribed = Set(state.subscribed)
            let ready = state.subscribeWaiters.filter { $0.mids.isSubset(of: subscribed) }
            state.subscribeWaiters.removeAll { $0.mids.isSubset(of: subscribed) }
            return ready.map(\.continuation)
        }
        for continuation in ready { continuation.resume(returning: true) }
    }

    /// Waits until every one of `mids` is acknowledged (true), or `connectionEnded()` (false).
    func waitForSubscribes(_ mids: Set<Int32>) async -> Bool {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                guard !mids.isSubset(of: Set(state.subscribed)) else { return true }
                state.subscribeWaiters.append((mids, continuation))
                return false
            }
            if done { continuation.resume(returning: true) }
        }
    }

    /// The connection ended: no SUBACK waited for will come.
    func connectionEnded() {
        let waiting = state.withLock { state in
            defer { state.subscribeWaiters = [] }
            return state.subscribeWaiters.map(\.continuation)
        }
        for continuation in waiting { continuation.resume(returning: false) }
    }

    /// The subset of `mids` whose PUBACK has arrived.
    func acknowledgedPublishes(among mids: Set<Int32>) -> Set<Int32> {
        state.withLock { mids.intersection($0.published) }
    }

    /// The subset of `mids` whose SUBACK has arrived.
    func acknowledgedSubscribes(among mids: Set<Int32>) -> Set<Int32> {
        state.withLock { mids.intersection($0.subscribed) }
    }

    private static func append(_ mid: Int32, to list: inout [Int32], capacity: Int) {
        list.append(mid)
        if list.count > capacity { list.removeFirst(list.count - capacity) }
    }
}
