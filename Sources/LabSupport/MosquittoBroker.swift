import FoundationEssentials
internal import Glibc
internal import Synchronization
internal import SystemSupport

/// A real `mosquitto` broker on a free 127.0.0.1 port with a config of its own (persistence off, so a restart starts
/// with an empty retained store): the tests' (one per test), the bench's and the demo's. Stop it with
/// `await broker.stop()`; its temporary directory is removed then.
public final class MosquittoBroker: Sendable {
    /// TLS listener files (PEM).
    public struct TLSFiles: Sendable {
        public var caFile: String
        public var certFile: String
        public var keyFile: String
        /// Require a client certificate signed by `caFile`.
        public var requireClientCertificate: Bool

        public init(caFile: String, certFile: String, keyFile: String, requireClientCertificate: Bool = false) {
            self.caFile = caFile
            self.certFile = certFile
            self.keyFile = keyFile
            self.requireClientCertificate = requireClientCertificate
        }
    }

    /// Broker configuration.
    public struct Options: Sendable {
        /// Allow clients without username/password (default true).
        public var allowAnonymous: Bool
        /// Users for a password file (generated with `mosquitto_passwd -b`); empty means no password file.
        public var users: [String: String]
        /// Serve TLS instead of plain MQTT.
        public var tls: TLSFiles?
        /// Listen on this port instead of a free one (e.g. one a client is already trying).
        public var port: Int?
        /// Keep the retained store across `restart()` (saved in the temporary directory on SIGTERM).
        /// Off by default: a restart starts with an empty store.
        public var persistence: Bool
        /// Log every packet (`log_type all`), e.g. to count the PUBLISHes a client sent.
        public var logPackets: Bool
        /// What the broker logs (`log_type` lines) unless `logPackets`.
        public var logTypes: [String]
        /// Extra lines appended to the config.
        public var extraConfig: [String]
        /// Keep the config and the log in this directory (kept at `stop()`) instead of a temporary one; its files
        /// are named after the port, so several brokers share one directory.
        public var directory: String?
        /// Log to `mosquitto-<port>.log` in the directory (``MosquittoBroker/logPath``) instead of stderr.
        public var logToFile: Bool
        /// Run the broker in a process group of its own: the Ctrl-C a terminal sends to this process's group does
        /// not stop it (the demo stops it itself, after the bridge has said goodbye).
        public var ownProcessGroup: Bool

        public init(
            allowAnonymous: Bool = true, users: [String: String] = [:], tls: TLSFiles? = nil,
            port: Int? = nil, persistence: Bool = false, logPackets: Bool = false,
            logTypes: [String] = ["error", "warning", "notice", "information"], extraConfig: [String] = [],
            directory: String? = nil, logToFile: Bool = false, ownProcessGroup: Bool = false
        ) {
            self.allowAnonymous = allowAnonymous
            self.users = users
            self.tls = tls
            self.port = port
            self.persistence = persistence
            self.logPackets = logPackets
            self.logTypes = logTypes
            self.extraConfig = extraConfig
            self.directory = directory
            self.logToFile = logToFile
            self.ownProcessGroup = ownProcessGroup
        }
    }

    public let host = "127.0.0.1"
    public let port: Int
    public let binary: String
    /// The broker's configuration file.
    public let configFile: String
    /// The broker's log file, with `Options.logToFile`.
    public let logPath: String?
    /// The directory of the config (and the store, and the log).
    public let directory: String
    /// Whether `directory` is a temporary one of this broker's, removed by `stop()`.
    private let ownsDirectory: Bool
    private let ownProcessGroup: Bool
    /// The running broker process, and the output of the ones before a restart.
    private struct Processes {
        var child: ChildProcess?
        var previousOutput: [String] = []
    }

    private let processes = Mutex(Processes())

    /// The `mosquitto` binary (PATH or /usr/sbin); throws with the install instruction when missing.
    public static func locateBinary() throws(LabError) -> String {
        guard let binary = ChildProcess.locate("mosquitto") else {
            throw LabError(
                "mosquitto not found in PATH or /usr/sbin: install it with `apt-get install mosquitto mosquitto-clients`"
            )
        }
        return binary
    }

    /// Writes the config (and password file), starts the broker and waits until it accepts TCP connections.
    public static func start(_ options: Options = Options()) async throws(LabError) -> MosquittoBroker {
        let broker = try await MosquittoBroker(options: options)
        do {
            try await broker.launch()
        } catch {
            await broker.stop()
            throw error
        }
        return broker
    }

    private init(options: Options) async throws(LabError) {
        binary = try Self.locateBinary()
        if let given = options.directory {
            directory = given
        } else {
            directory = try Self.makeTemporaryDirectory()
        }
        ownsDirectory = options.directory == nil
        ownProcessGroup = options.ownProcessGroup
        if let given = options.port {
            port = given
        } else {
            port = try FreePort.next()
        }
        logPath = options.logToFile ? Path.join(directory, "mosquitto-\(port).log") : nil
        var lines = [
            "listener \(port) 127.0.0.1",
            "allow_anonymous \(options.allowAnonymous)",
            logPath.map { "log_dest file \($0)" } ?? "log_dest stderr",  // stderr: unbuffered, unlike stdout
            "connection_messages true",
        ]
        if options.persistence {
            lines += ["persistence true", "persistence_location \(directory)/", "autosave_interval 0"]
        } else {
            lines.append("persistence false")
        }
        lines += (options.logPackets ? ["all"] : options.logTypes).map { "log_type \($0)" }
        // Running as root, mosquitto would switch to the `mosquitto` user and lose access to our files.
        if let account = getpwuid(geteuid()), let name = account.pointee.pw_name {
            lines.append("user \(String(cString: name))")
        }
        if !options.users.isEmpty {
            let passwordFile = Path.join(directory, "passwords-\(port)")
            guard let tool = ChildProcess.locate("mosquitto_passwd") else {
                throw LabError("mosquitto_passwd not found: install it with `apt-get install mosquitto`")
            }
            var first = true
            for (user, password) in options.users.sorted(by: { $0.key < $1.key }) {
                try await ChildProcess.run(tool, (first ? ["-c", "-b"] : ["-b"]) + [passwordFile, user, password])
                first = false
            }
            lines.append("password_file \(passwordFile)")
        }
        if let tls = options.tls {
            lines += ["cafile \(tls.caFile)", "certfile \(tls.certFile)", "keyfile \(tls.keyFile)"]
            if tls.requireClientCertificate { lines.append("require_certificate true") }
        }
        lines += options.extraConfig
        configFile = Path.join(directory, "mosquitto-\(port).conf")
        do {
            try (lines.joined(separator: "\n") + "\n").write(toFile: configFile, atomically: true, encoding: .utf8)
        } catch {
            throw LabError("cannot write \(configFile): \(error)")
        }
    }

    /// A fresh `mosquitto-XXXXXX` directory under the system's temporary directory (mode 0700).
    private static func makeTemporaryDirectory() throws(LabError) -> String {
        var template = Array(Path.join(FileManager.default.temporaryDirectory.path, "mosquitto-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress, let result = mkdtemp(base) else { return nil }
            return String(cString: result)
        }
        guard let created else { throw LabError("mkdtemp failed: errno \(errno)") }
        return created
    }

    deinit {
        processes.withLock { $0.child }?.kill()
    }

    /// The broker's output: earlier runs (before a restart) then the current one; with `Options.logToFile`, its log.
    public var output: [String] {
        if let logPath {
            return ((try? readTextFile(logPath)) ?? "").split(separator: "\n").map(String.init)
        }
        return processes.withLock { $0.previousOutput + ($0.child?.output.map(\.text) ?? []) }
    }

    /// True while the broker process runs.
    public var isRunning: Bool { processes.withLock { $0.child?.isRunning ?? false } }

    /// The broker process id, while it runs.
    public var pid: Int32? { processes.withLock { $0.child?.isRunning == true ? $0.child?.pid : nil } }

    private func launch() async throws(LabError) {
        let process = try ChildProcess(
            executable: binary, arguments: ["-c", configFile], ownProcessGroup: ownProcessGroup)
        processes.withLock { $0.child = process }
        let deadline = ContinuousClock.now.advanced(by: LabTime.scaled(.seconds(10)))
        // The port is looked at once more after the deadline: a poller that a busy machine woke late (its broker
        // long up: "mosquitto version 2.0.11 running" in the log, seen at load 26) is not a broker that failed.
        while true {
            if let ended = process.terminated {
                throw LabError("mosquitto exited (\(ended)) while starting:\n\(output.joined(separator: "\n"))")
            }
            if FreePort.isAccepting(port) { return }
            if ContinuousClock.now >= deadline { break }
            do {
                try await Task.sleep(for: .milliseconds(20))
            } catch {
                throw LabError("cancelled while mosquitto was starting on port \(port)")
            }
        }
        throw LabError(
            "mosquitto did not accept connections on port \(port) within \(LabTime.scaled(.seconds(10))):\n"
                + output.joined(separator: "\n"))
    }

    /// SIGTERM and wait (SIGKILL after 5 s). Removes the temporary directory unless `keepingStore`
    /// (then `restart()` works, and with `Options.persistence` the retained store survives it).
    public func stop(keepingStore: Bool = false) async {
        await terminate(signal: SIGTERM)
        if !keepingStore, ownsDirectory { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// SIGKILL and wait (the temporary directory stays, so `restart()` works).
    public func kill() async {
        await terminate(signal: SIGKILL)
    }

    /// Stops the broker (if running) and starts it again on the same port, with an empty store unless
    /// `Options.persistence` is on.
    public func restart() async throws(LabError) {
        await terminate(signal: SIGTERM)
        try await launch()
    }

    private func terminate(signal: Int32) async {
        guard let process = processes.withLock({ $0.child }) else { return }
        if signal == SIGKILL {
            process.kill()
            _ = await process.waitForExit(timeout: .seconds(5))
        } else {
            await process.stop(timeout: .seconds(5))
        }
        await process.waitForOutputEnd(timeout: .seconds(1))
        processes.withLock {
            $0.previousOutput += process.output.map(\.text)
            $0.child = nil
        }
    }
}
