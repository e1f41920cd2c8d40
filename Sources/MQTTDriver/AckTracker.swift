internal import FoundationEssentials
internal import SystemSupport

/// Message ids acknowledged by the broker (PUBACK/PUBCOMP and SUBACK), written by libmosquitto's network
/// thread and read by the actor. Only the latest `capacity` ids of each kind are kept.
final class AckTracker: @unchecked Sendable {  // all state is guarded by `lock`
    private let lock = Lock()
    private let capacity: Int
    private var published: [Int32] = []
    private var subscribed: [Int32] = []

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    func publishAcknowledged(_ mid: Int32) {
        lock.withLock { Self.append(mid, to: &published, capacity: capacity) }
    }

    func subscribeAcknowledged(_ mid: Int32) {
        lock.withLock { Self.append(mid, to: &subscribed, capacity: capacity) }
    }

    /// The subset of `mids` whose PUBACK has arrived.
    func acknowledgedPublishes(among mids: Set<Int32>) -> Set<Int32> {
        lock.withLock { mids.intersection(published) }
    }

    /// The subset of `mids` whose SUBACK has arrived.
    func acknowledgedSubscribes(among mids: Set<Int32>) -> Set<Int32> {
        lock.withLock { mids.intersection(subscribed) }
    }

    private static func append(_ mid: Int32, to list: inout [Int32], capacity: Int) {
        list.append(mid)
        if list.count > capacity { list.removeFirst(list.count - capacity) }
    }
}
