import Foundation
import Synchronization
import TestSupport

/// A real `mosquitto` broker on a free 127.0.0.1 port with a temporary config (persistence off, so a
/// restart starts with an empty retained store). Stop it in a `defer` (`await broker.stop()`); its
/// temporary directory is removed then.
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
        /// Extra lines appended to the config.
        public var extraConfig: [String]

        public init(
            allowAnonymous: Bool = true, users: [String: String] = [:], tls: TLSFiles? = nil,
            port: Int? = nil, persistence: Bool = false, logPackets: Bool = false,
            extraConfig: [String] = []
        ) {
            self.allowAnonymous = allowAnonymous
            self.users = users
            self.tls = tls
            self.port = port
            self.persistence = persistence
            self.logPackets = logPackets
            self.extraConfig = extraConfig
        }
    }

    public let host = "127.0.0.1"
    public let port: Int
    public let binary: String
    /// The broker's configuration file.
    public let configFile: String
    private let directory: TemporaryDirectory
    /// The running broker process, and the output of the ones before a restart.
    private struct Processes {
        var child: ChildProcess?
        var previousOutput: [String] = []
    }

    private let processes = Mutex(Processes())

    /// The `mosquitto` binary (PATH or /usr/sbin); throws with the install instruction when missing.
    public static func locateBinary() throws -> String {
        guard let binary = ChildProcess.locate("mosquitto") else {
            throw TestSupportError(
                "mosquitto not found in PATH or /usr/sbin: install it with `apt-get install mosquitto mosquitto-clients`"
            )
        }
        return binary
    }

    /// Writes the config (and password file), starts the broker and waits until it accepts TCP connections.
    public static func start(_ options: Options = Options()) async throws -> MosquittoBroker {
        let broker = try await MosquittoBroker(options: options)
        do {
            try await broker.launch()
        } catch {
            await broker.stop()
            throw error
        }
        return broker
    }

    private init(options: Options) async throws {
        binary = try Self.locateBinary()
        directory = try TemporaryDirectory(prefix: "mosquitto")
        port = try options.port ?? FreePort.next()
        var lines = [
            "listener \(port) 127.0.0.1",
            "allow_anonymous \(options.allowAnonymous)",
            "log_dest stderr",  // unbuffered, unlike stdout into a pipe
            "connection_messages true",
        ]
        if options.persistence {
            lines += ["persistence true", "persistence_location \(directory.path)/", "autosave_interval 0"]
        } else {
            lines.append("persistence false")
        }
        lines +=
            options.logPackets
            ? ["log_type all"]
            : ["log_type error", "log_type warning", "log_type notice", "log_type information"]
        // Running as root, mosquitto would switch to the `mosquitto` user and lose access to our files.
        if let account = getpwuid(geteuid()), let name = account.pointee.pw_name {
            lines.append("user \(String(cString: name))")
        }
        if !options.users.isEmpty {
            let passwordFile = directory.file("passwords")
            guard let tool = ChildProcess.locate("mosquitto_passwd") else {
                throw TestSupportError("mosquitto_passwd not found: install it with `apt-get install mosquitto`")
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
        configFile = try directory.write("mosquitto.conf", lines.joined(separator: "\n") + "\n")
    }

    deinit {
        processes.withLock { $0.child }?.kill()
    }

    /// The broker's output: earlier runs (before a restart) then the current one.
    public var output: [String] {
        processes.withLock { $0.previousOutput + ($0.child?.output.map(\.text) ?? []) }
    }

    /// True while the broker process runs.
    public var isRunning: Bool { processes.withLock { $0.child?.isRunning ?? false } }

    /// The broker process id, while it runs.
    public var pid: Int32? { processes.withLock { $0.child?.isRunning == true ? $0.child?.pid : nil } }

    private func launch() async throws {
        let process = try ChildProcess(executable: binary, arguments: ["-c", configFile])
        processes.withLock { $0.child = process }
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while ContinuousClock.now < deadline {
            if let ended = process.terminated {
                throw TestSupportError("mosquitto exited (\(ended)) while starting:\n\(process.outputText)")
            }
            if FreePort.isAccepting(port) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestSupportError(
            "mosquitto did not accept connections on port \(port) within 10 s:\n\(process.outputText)")
    }

    /// SIGTERM and wait (SIGKILL after 5 s). Removes the temporary directory unless `keepingStore`
    /// (then `restart()` works, and with `Options.persistence` the retained store survives it).
    public func stop(keepingStore: Bool = false) async {
        await terminate(signal: SIGTERM)
        if !keepingStore { directory.remove() }
    }

    /// SIGKILL and wait (the temporary directory stays, so `restart()` works).
    public func kill() async {
        await terminate(signal: SIGKILL)
    }

    /// Stops the broker (if running) and starts it again on the same port, with an empty store unless
    /// `Options.persistence` is on.
    public func restart() async throws {
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
