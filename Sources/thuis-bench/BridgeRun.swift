import Foundation
import LabSupport

/// One `thuis-bridge run` child process with its devices.toml, in its own directory of the run.
struct BridgeRun: Sendable {
    let process: ChildProcess
    let directory: String
    let name: String

    /// The `thuis-bridge` binary next to this benchmark's executable (both are products of one build).
    static func binary() throws -> String {
        if let override = ProcessInfo.processInfo.environment["THUIS_BRIDGE"] { return override }
        let own = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("thuis-bridge").path,
            own.deletingLastPathComponent().appendingPathComponent("thuis-bridge").path,
        ].compactMap { $0 }
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        throw BenchError(
            "thuis-bridge not found next to thuis-bench (\(candidates)): build it with "
                + "`swift build -c release --product thuis-bridge` first")
    }

    /// Writes `devices.toml` (bridge name, the broker, then `body`) and starts the bridge, with `arguments` after
    /// `run --config <file>`.
    static func start(
        name: String, brokerPort: Int, body: String, directory: String, arguments: [String] = []
    ) throws -> BridgeRun {
        let config = (directory as NSString).appendingPathComponent("devices.toml")
        let text = """
            [bridge]
            name = "\(name)"
            log_level = "warning"
            [mqtt]
            host = "127.0.0.1"
            port = \(brokerPort)

            \(body)
            """
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let process = try ChildProcess.bench(
            try binary(), ["run", "--config", config] + arguments, directory: directory,
            logPath: (directory as NSString).appendingPathComponent(
                "bridge-\(Int(Date().timeIntervalSince1970 * 1000)).log"))
        return BridgeRun(process: process, directory: directory, name: name)
    }

    var stateTopic: String { "Thuis/bridge/\(name)/state" }
}
