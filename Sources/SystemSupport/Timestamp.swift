internal import Glibc

/// ISO 8601 timestamps with whole seconds (truncated), written with the C library's `gmtime_r`/`localtime_r`:
/// Foundation's date formatting would load ICU and its time-zone data (about 1 MB of the daemon's memory) for
/// these strings.
public enum Timestamp {
    /// `2026-11-22T04:38:02Z` in UTC, or `2026-11-22T05:38:02+01:00` in the local time zone; a time the C
    /// library cannot represent is written as the epoch.
    public static func iso8601(secondsSince1970: Double, localTime: Bool = false) -> String {
        guard var seconds = time_t(exactly: secondsSince1970.isFinite ? secondsSince1970.rounded(.down) : 0) else {
            return "1970-01-01T00:00:00Z"
        }
        var parts = tm()
        let converted = localTime ? localtime_r(&seconds, &parts) : gmtime_r(&seconds, &parts)
        guard converted != nil else { return "1970-01-01T00:00:00Z" }
        return format(parts, offsetSeconds: localTime ? parts.tm_gmtoff : 0)
    }

    /// The broken-down time `parts`, at `offsetSeconds` east of UTC.
    static func format(_ parts: tm, offsetSeconds: Int) -> String {
        let date =
            padded(Int(parts.tm_year) + 1900, 4) + "-" + padded(Int(parts.tm_mon) + 1, 2) + "-"
            + padded(Int(parts.tm_mday), 2)
        let time =
            padded(Int(parts.tm_hour), 2) + ":" + padded(Int(parts.tm_min), 2) + ":" + padded(Int(parts.tm_sec), 2)
        return date + "T" + time + zone(offsetSeconds: offsetSeconds)
    }

    /// `Z`, or `+hh:mm` / `-hh:mm`.
    private static func zone(offsetSeconds: Int) -> String {
        guard offsetSeconds != 0 else { return "Z" }
        let minutes = abs(offsetSeconds) / 60
        return (offsetSeconds < 0 ? "-" : "+") + padded(minutes / 60, 2) + ":" + padded(minutes % 60, 2)
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
