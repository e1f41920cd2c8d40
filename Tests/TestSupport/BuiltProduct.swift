public import Foundation

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

    /// Runs the built executable `name` to completion and returns what it printed (captured through temporary
    /// files, so no pipe can fill up). A run longer than `timeout` is terminated and throws ``TimedOut``.
    public static func run(
        _ name: String, _ arguments: [String], currentDirectory: URL? = nil,
        timeout: Duration = .seconds(60)
    ) throws -> RunResult {
        let files = FileManager.default
        let directory = files.temporaryDirectory.appendingPathComponent("built-product-\(UUID().uuidString)")
        try files.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? files.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout")
        let errURL = directory.appendingPathComponent("stderr")
        _ = files.createFile(atPath: outURL.path, contents: nil)
        _ = files.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }

        let process = Process()
        process.executableURL = try executable(named: name)
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw TimedOut(command: ([name] + arguments).joined(separator: " "), timeout: timeout)
        }
        process.waitUntilExit()
        return RunResult(
            status: process.terminationStatus,
            standardOutput: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            standardError: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}
