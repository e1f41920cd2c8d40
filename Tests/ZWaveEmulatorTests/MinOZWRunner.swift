import Foundation
import Testing

/// Runs `/usr/bin/MinOZW` (Debian package `openzwave`) against a serial device in a working directory,
/// where it writes OZW_Log.txt and its cache. MinOZW exits by itself after AllNodesQueried.
struct MinOZWRunner {
    static let path = "/usr/bin/MinOZW"

    struct Result {
        var exitCode: Int32
        var output: String
        var seconds: Double
        var timedOut: Bool

        var reachedAllNodesQueried: Bool { output.contains("AllNodesQueried") }
    }

    /// Fails the test with an install instruction when MinOZW is missing.
    static func requireInstalled() throws {
        try #require(FileManager.default.isExecutableFile(atPath: path),
                     "MinOZW is missing: install it with `sudo apt-get install openzwave`")
    }

    static func run(device: String, in directory: String, timeout: Double = 30) async throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [device]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let outputPath = directory + "/minozw.out"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        defer { try? output.close() }
        process.standardOutput = output
        process.standardError = output
        let start = ContinuousClock.now
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        let timedOut = process.isRunning
        if timedOut {
            process.terminate()
            process.waitUntilExit()
        }
        let elapsed = ContinuousClock.now - start
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let c = elapsed.components
        return Result(exitCode: process.terminationStatus, output: text,
                      seconds: Double(c.seconds) + Double(c.attoseconds) / 1e18, timedOut: timedOut)
    }

    /// The `ozwcache_*.xml` MinOZW wrote in `directory`, if any.
    static func cache(in directory: String) -> String? {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        guard let name = files.first(where: { $0.hasPrefix("ozwcache_") }) else { return nil }
        return try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)
    }
}
