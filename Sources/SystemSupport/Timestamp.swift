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

    /// `20261122T043802Z`: the UTC time without separators, for a file name (a damaged file put aside).
    public static func compact(secondsSince1970: Double) -> String {
        iso8601(secondsSince1970: secondsSince1970).filter { $0 != "-" && $0 != ":" }
    }

    /// The seconds since 1970 of a UTC timestamp as ``iso8601(secondsSince1970:localTime:)`` writes it
    /// (`2026-11-22T04:38:02Z`); nil for any other text.
    public static func secondsSince1970(iso8601 text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            var value: Int32 = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int32(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        return Int(timegm(&parts))
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
