import Foundation
import IntegrationSupport
import LabSupport
import TestSupport
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
        try #require(
            FileManager.default.isExecutableFile(atPath: path),
            "MinOZW is missing: install it with `sudo apt-get install openzwave`")
    }

    static func run(device: String, in directory: String, timeout: Double = 60) async throws -> Result {
        // TestSupport's ChildProcess (posix_spawn + its own waitpid) rather than Foundation's Process, whose
        // exit monitoring can miss a child's end in this multi-library test process and then hang.
        let start = ContinuousClock.now
        let child = try ChildProcess(executable: path, arguments: [device], workingDirectory: directory)
        var termination = await child.waitForExit(timeout: .milliseconds(Int(timeout * 1000)))
        let timedOut = termination == nil
        if timedOut { termination = await child.stop(timeout: .seconds(5)) }
        await child.waitForOutputEnd(timeout: .seconds(5))
        let elapsed = ContinuousClock.now - start
        let exitCode: Int32 = if case .exited(let code)? = termination { code } else { -1 }
        let c = elapsed.components
        return Result(
            exitCode: exitCode, output: child.outputText,
            seconds: Double(c.seconds) + Double(c.attoseconds) / 1e18, timedOut: timedOut)
    }

    /// The `ozwcache_*.xml` MinOZW wrote in `directory`, if any.
    static func cache(in directory: String) -> String? {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        guard let name = files.first(where: { $0.hasPrefix("ozwcache_") }) else { return nil }
        return try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)
    }
}
