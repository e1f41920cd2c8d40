import Foundation

/// A child process started by the benchmark (mosquitto, the bridge, MinOZW, the emulator), its output
/// appended to a log file, with its pid for /proc readings. Stop it with `stop()`.
final class BenchProcess: @unchecked Sendable {
    // @unchecked Sendable: `Process` is only used through its thread-safe members (pid, isRunning, terminate).
    let process = Process()
    let logPath: String
    let started: ContinuousClock.Instant
    /// The write end of the standard input, when it is kept open (a program that reads commands waits on it).
    private let input: Pipe?

    /// Starts `executable` with `arguments` in `directory`, stdout and stderr into `logPath`; standard input is
    /// /dev/null, or with `keepInputOpen` a pipe that stays open and silent until the process ends.
    init(
        _ executable: String, _ arguments: [String], directory: String? = nil, logPath: String,
        environment: [String: String]? = nil, keepInputOpen: Bool = false
    ) throws {
        self.logPath = logPath
        guard FileManager.default.createFile(atPath: logPath, contents: nil) else {
            throw BenchError("cannot create \(logPath)")
        }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if let environment { process.environment = environment }
        process.standardOutput = log
        process.standardError = log
        input = keepInputOpen ? Pipe() : nil
        if let input { process.standardInput = input } else { process.standardInput = FileHandle.nullDevice }
        started = .now
        try process.run()
        try? log.close()
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// The log so far.
    var output: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Resident set size in kB (VmRSS from /proc/<pid>/status), nil when the process is gone.
    var rssKB: Int? { Self.rssKB(pid: pid) }

    static func rssKB(pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "")
        }
        return nil
    }

    /// RSS, PSS and anonymous memory from /proc/<pid>/smaps_rollup, nil when the process is gone.
    var memory: MemoryReading? { MemoryReading(pid: pid) }

    /// SIGTERM, then SIGKILL after `timeout`; waits for the exit.
    func stop(timeout: Duration = .seconds(10)) async {
        guard process.isRunning else { return }
        kill(pid, SIGTERM)
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning {
            kill(pid, SIGKILL)
            while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        }
    }

    /// Waits until the output contains `text`; returns the time it was first seen, nil on timeout or exit.
    func waitForOutput(_ text: String, timeout: Duration, poll: Duration = .milliseconds(5)) async -> ContinuousClock
        .Instant?
    {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if output.contains(text) { return .now }
            if !process.isRunning { return output.contains(text) ? .now : nil }
            try? await Task.sleep(for: poll)
        }
        return nil
    }
}
