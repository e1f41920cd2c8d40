import FoundationEssentials
internal import Glibc
internal import Synchronization
internal import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The demo's private `mosquitto` on a free 127.0.0.1 port, with its config and log in the demo's
/// temporary directory (persistence off). It runs in its own process group, so the Ctrl-C that the
/// terminal sends to the demo's group does not stop it before the bridge has said goodbye: `stop()`
/// ends it, after the bridge.
final class DemoBroker: Sendable {
    let port: Int
    let logPath: String
    private let pid: pid_t
    /// Whether the broker has exited and been reaped.
    private let exited = Mutex(false)

    /// Writes the config, starts `mosquitto -c` and waits (up to `timeout`) until it accepts connections.
    init(directory: String, timeout: Duration = .seconds(10)) throws(DemoError) {
        guard let executable = Self.locate("mosquitto") else { throw .mosquittoMissing }
        port = try Self.freePort()
        logPath = Path.join(directory, "mosquitto.log")
        let configPath = Path.join(directory, "mosquitto.conf")
        let config =
            [
                "listener \(port) 127.0.0.1", "allow_anonymous true", "persistence false",
                "log_dest file \(logPath)", "log_type error", "log_type warning", "log_type notice",
            ].joined(separator: "\n") + "\n"
        do {
            try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        } catch {
            throw .system(call: "write(\(configPath))", errno: EIO)
        }
        pid = try Self.spawn(executable, ["-c", configPath])
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while !Self.accepts(port) {
            if reap(block: false) || ContinuousClock.now >= deadline {
                stop()
                let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "(no log)"
                throw .brokerNotReady(port: port, log: log)
            }
            sleepThread(seconds: 0.05)
        }
    }

    /// SIGTERM, then SIGKILL if it has not exited within 5 s; waits for it. Idempotent.
    func stop() {
        guard !exited.withLock({ $0 }) else { return }
        kill(pid, SIGTERM)
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while !reap(block: false) {
            if ContinuousClock.now >= deadline {
                kill(pid, SIGKILL)
                _ = reap(block: true)
                return
            }
            sleepThread(seconds: 0.02)
        }
    }

    /// Whether the broker has exited (reaping it when it has).
    private func reap(block: Bool) -> Bool {
        exited.withLock { exited in
            if exited { return true }
            var status: Int32 = 0
            let result = waitpid(pid, &status, block ? 0 : WNOHANG)
            if result == pid || (result < 0 && errno == ECHILD) { exited = true }
            return exited
        }
    }

    /// Finds `name` in PATH or the sbin directories (Debian installs mosquitto in /usr/sbin).
    static func locate(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/local/sbin", "/sbin"]
        for directory in directories {
            let candidate = Path.join(directory, name)
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Starts `executable` with stdin/stdout/stderr on /dev/null, default signal handling, an empty
    /// signal mask (Swift's threads block signals; a child would inherit that and ignore SIGTERM) and
    /// its own process group.
    private static func spawn(_ executable: String, _ arguments: [String]) throws(DemoError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGUSR1, SIGUSR2] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard result == 0 else { throw .system(call: "posix_spawn(\(executable))", errno: result) }
        return child
    }

    /// A loopback TCP port that was free a moment ago (bound to port 0, read back, closed).
    private static func freePort() throws(DemoError) -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .system(call: "socket", errno: errno) }
        defer { close(fd) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw .system(call: "bind(127.0.0.1:0)", errno: errno) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw .system(call: "getsockname", errno: errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// True when something accepts TCP connections on 127.0.0.1:`port`.
    private static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(clamping: port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
