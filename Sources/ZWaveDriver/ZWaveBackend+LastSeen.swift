internal import FoundationEssentials
internal import SystemSupport

extension ZWaveBackend {
    /// How often a node's `last_seen` is refreshed in the inventory (each refresh republishes it).
    static let lastSeenResolution: TimeInterval = 60

    /// A report arrived from `node`: remembers when, and refreshes the inventory at most once a minute.
    func noteSeen(_ node: NodeID) {
        let now = Date()
        lastSeen[node] = now
        if let published = lastSeenPublished[node], now.timeIntervalSince(published) < Self.lastSeenResolution {
            return
        }
        lastSeenPublished[node] = now
        workContinuation.yield(.details(node))
    }

    /// `2026-11-22T04:38:02Z`: UTC, whole seconds (truncated).
    nonisolated static func timestamp(_ date: Date) -> String {
        Timestamp.iso8601(secondsSince1970: date.timeIntervalSince1970)
    }
}
