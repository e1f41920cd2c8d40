import Foundation
import LabSupport

extension ChildProcess {
    /// A child of the benchmark (the bridge, MinOZW, cec-client, the browser): started in `directory`, its stdout
    /// and stderr into `logPath` (kept in the run directory), standard input /dev/null or, with `keepInputOpen`, a
    /// pipe that stays open and silent until it ends (a program that reads commands waits on it).
    static func bench(
        _ executable: String, _ arguments: [String], directory: String? = nil, logPath: String,
        keepInputOpen: Bool = false
    ) throws -> ChildProcess {
        try ChildProcess(
            executable: executable, arguments: arguments, workingDirectory: directory, standardInput: keepInputOpen,
            output: .file(logPath))
    }

    /// Resident set size in kB (VmRSS from /proc/<pid>/status), nil when the process is gone.
    var rssKB: Int? { isRunning ? Self.rssKB(pid: pid) : nil }

    static func rssKB(pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "")
        }
        return nil
    }

    /// RSS, PSS and anonymous memory from /proc/<pid>/smaps_rollup, nil when the process is gone.
    var memory: MemoryReading? { isRunning ? MemoryReading(pid: pid) : nil }

    /// Waits until the output contains `text`; returns the time it was first seen, nil on timeout or exit.
    func waitForOutput(_ text: String, timeout: Duration, poll: Duration = .milliseconds(5)) async -> ContinuousClock
        .Instant?
    {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if outputText.contains(text) { return .now }
            if !isRunning { return outputText.contains(text) ? .now : nil }
            try? await Task.sleep(for: poll)
        }
        return nil
    }
}
