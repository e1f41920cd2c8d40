internal import Foundation
internal import Glibc

extension ZWaveBackend {
    /// How often a node's `last_seen` is refreshed in the inventory (each refresh republishes it).
    static let lastSeenResolution: TimeInterval = 60

    /// A report arrived from `node`: remembers when, and refreshes the inventory at most once a minute.
    func noteSeen(_ node: NodeID) {
        let now = Date()
        lastSeen[node] = now
        if let published = lastSeenPublished[node], now.timeIntervalSince(published) < Self.lastSeenResolution { return }
        lastSeenPublished[node] = now
        workContinuation.yield(.details(node))
    }

    /// `2026-11-22T04:38:02Z`: UTC, whole seconds (truncated). Written with the C library's `gmtime_r`, not
    /// Foundation's date formatting, which loads ICU's time-zone data (about 1 MB of the daemon's memory) for
    /// this one string.
    static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "1970-01-01T00:00:00Z" }
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(parts.tm_year + 1900, 4) + "-" + padded(parts.tm_mon + 1, 2) + "-" + padded(parts.tm_mday, 2)
            + "T" + padded(parts.tm_hour, 2) + ":" + padded(parts.tm_min, 2) + ":" + padded(parts.tm_sec, 2) + "Z"
    }
}
