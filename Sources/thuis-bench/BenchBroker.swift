import Foundation

/// A real mosquitto on a free 127.0.0.1 port, persistence off, logging to a file in the run directory.
final class BenchBroker: Sendable {
    let port: Int
    let process: BenchProcess

    static func binary() throws -> String {
        for candidate in ["/usr/sbin/mosquitto", "/usr/bin/mosquitto", "/usr/local/sbin/mosquitto"]
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        throw BenchError("mosquitto not found: install it with `apt-get install mosquitto`")
    }

    init(directory: BenchDirectory) async throws {
        port = try FreePort.next()
        var lines = [
            "listener \(port) 127.0.0.1", "allow_anonymous true", "persistence false",
            "log_dest stderr", "log_type error", "log_type warning",
            "max_queued_messages 100000",
        ]
        if let account = getpwuid(geteuid()), let name = account.pointee.pw_name {
            lines.append("user \(String(cString: name))")
        }
        let config = try directory.write("mosquitto-\(port).conf", lines.joined(separator: "\n") + "\n")
        process = try BenchProcess(try Self.binary(), ["-c", config], logPath: directory.file("mosquitto-\(port).log"))
        let deadline = ContinuousClock.now + .seconds(10)
        while !FreePort.isAccepting(port) {
            guard ContinuousClock.now < deadline, process.isRunning else {
                throw BenchError("mosquitto did not start on port \(port): \(process.output)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func stop() async { await process.stop() }
}
