import Foundation
import LabSupport

/// The library's own minimal client (`/usr/bin/MinOZW`, Debian package `openzwave`) as the baseline for
/// start-up time. It reads the device database from `../../../config/` relative to its working directory
/// (a link to /etc/openzwave is made there) and keeps its network cache in the working directory.
enum MinOZW {
    static let binary = "/usr/bin/MinOZW"
    /// OpenZWave logs this (with its own millisecond timestamp) for AllNodesQueried and AllNodesQueriedSomeDead.
    static let allNodesQueriedMarker = "Notification: AllNodesQueried"

    /// Seconds from MinOZW's start to the library's AllNodesQueried notification (the timestamp OpenZWave
    /// logged, so polling the log adds no error); nil on timeout. Reuses the cache (`ozwcache_*.xml`) a
    /// previous call left in the working directory.
    static func timeToAllNodesQueried(
        link: String, directory: String, timeout: Duration = .seconds(240),
        log: (String) -> Void
    ) async throws -> Double? {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchError("\(binary) not found: install it with `apt-get install openzwave`")
        }
        let files = FileManager.default
        let work = (directory as NSString).appendingPathComponent("a/b/c")
        try files.createDirectory(atPath: work, withIntermediateDirectories: true)
        let config = (directory as NSString).appendingPathComponent("config")
        if !files.fileExists(atPath: config) {
            try files.createSymbolicLink(atPath: config, withDestinationPath: "/etc/openzwave")
        }
        let logPath = (directory as NSString).appendingPathComponent(
            "minozw-\(Int(Date().timeIntervalSince1970 * 1000)).log")
        let spawned = Date()
        let process = try ChildProcess.bench(binary, [link], directory: work, logPath: logPath)
        let seen = await process.waitForOutput(allNodesQueriedMarker, timeout: timeout, poll: .milliseconds(50))
        // MinOZW writes its cache and exits by itself a few seconds after the notification.
        let deadline = ContinuousClock.now + .seconds(30)
        while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        await process.stop(timeout: .seconds(5))
        guard seen != nil, let stamp = loggedTime(of: allNodesQueriedMarker, in: process.outputText) else {
            log("  MinOZW output tail:\n\(process.outputText.suffix(1500))")
            return nil
        }
        return stamp.timeIntervalSince(spawned)
    }

    /// The local-time timestamp (`2026-11-22 04:27:39.978`) of the first log line containing `marker`.
    static func loggedTime(of marker: String, in output: String) -> Date? {
        guard let line = output.split(separator: "\n").first(where: { $0.contains(marker) }),
            let match = line.firstMatch(of: /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}/)
        else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone.current
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        return formatter.date(from: String(match.output))
    }
}
