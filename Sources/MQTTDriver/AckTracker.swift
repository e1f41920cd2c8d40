internal import FoundationEssentials
internal import Synchronization

/// Message ids acknowledged by the broker (PUBACK/PUBCOMP and SUBACK), written by libmosquitto's network
/// thread and read by the actor. Only the latest `capacity` ids of each kind are kept.
final class AckTracker: Sendable {
    private struct State {
        var published: [Int32] = []
        var subscribed: [Int32] = []
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
        state.withLock { Self.append(mid, to: &$0.subscribed, capacity: capacity) }
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
