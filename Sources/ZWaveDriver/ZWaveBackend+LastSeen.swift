internal import FoundationEssentials
internal import SystemSupport

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
