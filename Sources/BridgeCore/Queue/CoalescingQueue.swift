/// Per-device command queue: at most one command in flight per device, and while one is in flight only
/// the newest command per channel waits (a slider drag's intermediate levels are dropped; the last level
/// is always applied).
///
/// A plain value type with no I/O: the bridge calls `submit` when a command arrives and `complete` when
/// the hardware call for the in-flight command returns, and executes whatever they hand back.
public struct CoalescingQueue<Key: Hashable & Sendable, Channel: Hashable & Sendable, Command: Sendable>: Sendable {
    private struct Lane: Sendable {
        var inFlight = false
        /// Waiting commands in arrival order of their channel, newest command per channel.
        var waiting: [(channel: Channel, command: Command)] = []
    }

    private var lanes: [Key: Lane] = [:]
    /// How many submitted commands were replaced by a newer one before being sent.
    public private(set) var coalescedCount = 0

    public init() {}

    /// Adds a command. Returns it back when the device is idle and it should be executed now; otherwise
    /// it waits (replacing an older waiting command of the same channel) and `nil` is returned.
    public mutating func submit(_ command: Command, for key: Key, channel: Channel) -> Command? {
        var lane = lanes[key, default: Lane()]
        defer { lanes[key] = lane }
        if !lane.inFlight {
            lane.inFlight = true
            return command
        }
        if let index = lane.waiting.firstIndex(where: { $0.channel == channel }) {
            lane.waiting[index].command = command
            coalescedCount += 1
        } else {
            lane.waiting.append((channel, command))
        }
        return nil
    }

    /// Marks the in-flight command of `key` finished. Returns the next command to execute, if any (the
    /// device stays busy), or `nil` (the device is idle).
    public mutating func complete(_ key: Key) -> Command? {
        guard var lane = lanes[key] else { return nil }
        if lane.waiting.isEmpty {
            lanes[key] = nil
            return nil
        }
        let next = lane.waiting.removeFirst().command
        lane.inFlight = true
        lanes[key] = lane
        return next
    }

    /// Drops everything waiting for `key` (the in-flight command is not affected) and returns it, e.g. to
    /// reject the commands of a device whose adapter is gone.
    public mutating func drain(_ key: Key) -> [Command] {
        guard var lane = lanes[key] else { return [] }
        let dropped = lane.waiting.map(\.command)
        lane.waiting.removeAll()
        lanes[key] = lane
        return dropped
    }

    /// The command of `channel` waiting for `key` (not the one in flight), if any.
    public func waiting(for key: Key, channel: Channel) -> Command? {
        lanes[key]?.waiting.first { $0.channel == channel }?.command
    }

    /// Whether a command is in flight for `key`.
    public func isBusy(_ key: Key) -> Bool { lanes[key]?.inFlight ?? false }

    /// Number of commands waiting (not in flight) across all devices.
    public var waitingCount: Int { lanes.values.reduce(0) { $0 + $1.waiting.count } }
}
