internal import FoundationEssentials
internal import SystemSupport

/// When each node last reported a value, and when that was last put in the inventory (its `last_seen`), so the
/// inventory is refreshed at most once per `resolution`.
struct LastSeen {
    /// How often a node's `last_seen` is refreshed in the inventory (each refresh republishes it).
    static let resolution: TimeInterval = 60

    private var seen: [NodeID: Date] = [:]
    private var published: [NodeID: Date] = [:]

    /// `node` reported a value at `now`; true when its inventory entry is due (and counted as refreshed now).
    mutating func note(_ node: NodeID, at now: Date) -> Bool {
        seen[node] = now
        if let last = published[node], now.timeIntervalSince(last) < Self.resolution { return false }
        published[node] = now
        return true
    }

    /// When `node` last reported, nil if it never did.
    func lastReport(_ node: NodeID) -> Date? { seen[node] }

    /// When `node` last reported, as the inventory entry being published now shows it.
    mutating func publishing(_ node: NodeID) -> Date? {
        published[node] = seen[node]
        return seen[node]
    }
}

extension ZWaveBackend {
    /// A report arrived from `node`: remembers when, and refreshes the inventory at most once a minute.
    func noteSeen(_ node: NodeID) {
        if lastSeen.note(node, at: Date()) { workContinuation.yield(.details(node)) }
    }

    /// `2026-11-22T04:38:02Z`: UTC, whole seconds (truncated).
    nonisolated static func timestamp(_ date: Date) -> String {
        Timestamp.iso8601(secondsSince1970: date.timeIntervalSince1970)
    }
}
