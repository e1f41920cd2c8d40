public import Foundation
import LabSupport
import TestSupport

/// Finds executables SwiftPM built into the same products directory as the running tests
/// (`.build/<triple>/debug/`) and runs them, so tests can exercise the real `thuis-bridge` binary.
public enum BuiltProduct {
    /// The executable was not found next to the test bundle.
    public struct NotFound: Error, CustomStringConvertible {
        public let name: String
        public let searched: [String]
        public var description: String {
            "built product '\(name)' not found (searched \(searched.joined(separator: ", "))); "
                + "build it with `swift build --product \(name)` or run the tests with `swift test`"
        }
    }

    /// The process did not finish in time (it was terminated).
    public struct TimedOut: Error, CustomStringConvertible {
        public let command: String
        public let timeout: Duration
        public var description: String { "\(command) ran longer than \(timeout) and was terminated" }
    }

    /// What a finished process printed and how it exited.
    public struct RunResult: Sendable {
        public let status: Int32
        public let standardOutput: String
        public let standardError: String
    }

    /// The URL of the executable `name` in the products directory: looks beside the test bundle and the test
    /// runner, walking up a few levels (a macOS `.xctest` bundle nests its binary in `Contents/MacOS`).
    public static func executable(named name: String) throws(NotFound) -> URL {
        var starts = [Bundle.main.bundleURL]
        if let executable = Bundle.main.executableURL { starts.append(executable.deletingLastPathComponent()) }
        if let first = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        starts += Bundle.allBundles.map(\.bundleURL)
        var searched: [String] = []
        for start in starts {
            var directory = start.standardizedFileURL
            for _ in 0..<5 {
                if !searched.contains(directory.path) { searched.append(directory.path) }
                let candidate = directory.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                    !isDirectory.boolValue, FileManager.default.isExecutableFile(atPath: candidate.path)
                {
                    return candidate
                }
                directory.deleteLastPathComponent()
            }
        }
        throw NotFound(name: name, searched: searched)
    }

    /// Runs the built executable `name` to completion and returns what it printed on each stream. It runs as a
    /// ``ChildProcess`` (posix_spawn, its own waitpid, pipes drained by reader threads). A run longer than
    /// `timeout` is killed and throws ``TimedOut``.
    public static func run(
        _ name: String, _ arguments: [String], currentDirectory: URL? = nil,
        timeout: Duration = .seconds(60)
    ) async throws -> RunResult {
        let child = try ChildProcess(
            executable: try executable(named: name).path, arguments: arguments,
            workingDirectory: currentDirectory?.path)
        guard let termination = await child.waitForExit(timeout: timeout) else {
            _ = await child.stop(timeout: .seconds(5))
            throw TimedOut(command: ([name] + arguments).joined(separator: " "), timeout: TestTime.scaled(timeout))
        }
        await child.waitForOutputEnd(timeout: .seconds(5))
        let status: Int32 = if case .exited(let code) = termination { code } else { 128 + 9 }
        func text(_ stream: ChildProcess.Stream) -> String {
            child.output.filter { $0.stream == stream }.map { $0.text + "\n" }.joined()
        }
        return RunResult(status: status, standardOutput: text(.stdout), standardError: text(.stderr))
    }
}
