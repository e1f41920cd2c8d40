import Foundation
import LabSupport
import Synchronization
import TestSupport

/// The machine's avahi-daemon for tests that publish or browse DNS-SD services (the HomeKit bridge's
/// `_hap._tcp`), started by the tests when none runs.
///
/// A Raspberry Pi runs avahi-daemon and the D-Bus system bus already; a container (CI) runs neither. Then
/// `AvahiDaemon.shared.start()` starts both, once for the whole test process, the way the machine would:
/// - `dbus-daemon --system --nofork --nopidfile`: Debian's system bus configuration, whose policy
///   (/usr/share/dbus-1/system.d/avahi-dbus.conf) lets avahi-daemon own `org.freedesktop.Avahi`; at the standard
///   socket /run/dbus/system_bus_socket, so libavahi-client, `avahi-browse` and python's D-Bus clients find it
///   without any environment variable;
/// - `avahi-daemon --no-drop-root --no-chroot --no-rlimits -f <private config>`: as root, since a container has no
///   `avahi` account set up for it, without the chroot (no /etc/avahi to chroot into the private config), with
///   `use-ipv6=no`, `enable-dbus=yes`, and without wide-area or host records the tests do not need. It publishes on
///   every multicast interface and on `lo`, so a client on this machine (python's zeroconf as well as
///   `avahi-browse`) finds the services on 127.0.0.1.
///
/// avahi-daemon allows one instance per machine (/run/avahi-daemon/pid), so this is a process-wide singleton; both
/// processes are killed when the test process exits. A test that stops the daemon (`stop()`, `start()` again)
/// must hold every end-to-end slot (the `.endToEnd(exclusive: true)` trait) so no other test that holds a slot sees the
/// daemon vanish, and `canStop` must be true (a daemon the machine runs is never stopped).
public actor AvahiDaemon {
    public static let shared = AvahiDaemon()

    private var bus: ChildProcess?
    private var daemon: ChildProcess?
    private var directory: TemporaryDirectory?
    private var checkedExternal = false
    /// True when the machine ran an avahi-daemon before the tests: it is used, never stopped.
    public private(set) var isExternal = false

    /// Whether tests may stop and restart the daemon (only one the tests started).
    public var canStop: Bool { !isExternal }

    /// The daemon's output (only of one the tests started).
    public var output: String { daemon?.outputText ?? "" }

    /// The start under way: tests that call `start()` meanwhile wait for it instead of starting a second daemon.
    private var starting: Task<Void, any Error>?

    /// Makes sure avahi-daemon (and the D-Bus system bus) run; starts them when not.
    public func start() async throws {
        if let starting { return try await starting.value }
        let task = Task { try await launch() }
        starting = task
        defer { starting = nil }
        try await task.value
    }

    private func launch() async throws {
        if !checkedExternal {
            checkedExternal = true
            isExternal = await Self.daemonRuns()
        }
        if isExternal { return }
        if daemon?.isRunning == true { return }
        try await startBus()
        let avahi = try Self.locate("avahi-daemon", package: "avahi-daemon")
        let directory = try self.directory ?? TemporaryDirectory(prefix: "avahi")
        self.directory = directory
        let config = try directory.write(
            "avahi-daemon.conf",
            """
            [server]
            use-ipv4=yes
            use-ipv6=no
            enable-dbus=yes
            ratelimit-interval-usec=1000000
            ratelimit-burst=1000
            [wide-area]
            enable-wide-area=no
            [publish]
            publish-hinfo=no
            publish-workstation=no

            """)
        let process = try ChildProcess(
            executable: avahi, arguments: ["--no-drop-root", "--no-chroot", "--no-rlimits", "-f", config])
        daemon = process
        Self.children.withLock { _ = $0.insert(process.pid) }
        try await MQTTTestClient.poll(timeout: .seconds(20), "avahi-daemon to start") {
            process.outputText.contains("Server startup complete") || process.terminated != nil
        }
        if let ended = process.terminated {
            throw TestSupportError("avahi-daemon exited (\(ended)) while starting:\n\(process.outputText)")
        }
    }

    /// Stops the daemon the tests started (SIGTERM, as `systemctl stop` does); the bus keeps running.
    public func stop() async throws {
        guard canStop else { throw TestSupportError("the machine's own avahi-daemon is never stopped by tests") }
        guard let process = daemon else { return }
        await process.stop(timeout: .seconds(10))
        Self.children.withLock { _ = $0.remove(process.pid) }
        daemon = nil
    }

    /// `avahi-browse -rpt TYPE`: the resolved services of `type` on this machine, parsed.
    public static func browse(_ type: String) async throws -> [BrowsedService] {
        let browse = try locate("avahi-browse", package: "avahi-utils")
        let output = try await ChildProcess.run(browse, ["-rpt", "-k", type], timeout: .seconds(20))
        return output.split(separator: "\n").compactMap { BrowsedService(line: String($0)) }
    }

    /// One resolved line of `avahi-browse -rpt -k`:
    /// `=;lo;IPv4;Name;_hap._tcp;local;host.local;127.0.0.1;51826;"c#=1" "sf=1"`.
    public struct BrowsedService: Sendable, Equatable {
        public let interface: String
        public let name: String
        public let type: String
        public let address: String
        public let port: Int
        /// The TXT records, `key=value`, in the order avahi-browse prints them.
        public let txt: [String]

        init?(line: String) {
            let fields = line.split(separator: ";", maxSplits: 9, omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 10, fields[0] == "=", let port = Int(fields[8]) else { return nil }
            interface = fields[1]
            name = Self.unescaped(fields[3])
            type = fields[4]
            address = fields[7]
            self.port = port
            txt = fields[9].split(separator: "\" \"").map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }

        /// A DNS label as avahi-browse prints it, with `\DDD` (decimal) and `\c` escapes, e.g. `Thuis\032\0352`.
        static func unescaped(_ label: String) -> String {
            var bytes: [UInt8] = []
            var rest = Array(label.utf8)[...]
            while let byte = rest.popFirst() {
                guard byte == UInt8(ascii: "\\"), !rest.isEmpty else {
                    bytes.append(byte)
                    continue
                }
                let digits = rest.prefix(3)
                if digits.count == 3, digits.allSatisfy({ (48...57).contains($0) }),
                    let value = UInt8(String(decoding: digits, as: UTF8.self))
                {
                    bytes.append(value)
                    rest = rest.dropFirst(3)
                } else if let escaped = rest.popFirst() {
                    bytes.append(escaped)
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// The TXT record `key`'s value.
        public func value(_ key: String) -> String? {
            txt.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }
    }

    /// Starts `dbus-daemon --system` unless the system bus answers.
    private func startBus() async throws {
        if await Self.busAnswers() { return }
        let dbus = try Self.locate("dbus-daemon", package: "dbus")
        // A socket left by a bus that is gone would stop the new one from listening.
        try? FileManager.default.createDirectory(atPath: "/run/dbus", withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: "/run/dbus/system_bus_socket")
        let process = try ChildProcess(executable: dbus, arguments: ["--system", "--nofork", "--nopidfile"])
        bus = process
        Self.children.withLock { _ = $0.insert(process.pid) }
        try await MQTTTestClient.poll(timeout: .seconds(20), "the D-Bus system bus to answer") {
            await Self.busAnswers() || process.terminated != nil
        }
        if let ended = process.terminated {
            throw TestSupportError("dbus-daemon --system exited (\(ended)) while starting:\n\(process.outputText)")
        }
    }

    private static func busAnswers() async -> Bool {
        guard let send = ChildProcess.locate("dbus-send") else { return false }
        let arguments = ["--system", "--print-reply", "--dest=org.freedesktop.DBus", "/", "org.freedesktop.DBus.GetId"]
        return (try? await ChildProcess.run(send, arguments, timeout: .seconds(5))) != nil
    }

    private static func daemonRuns() async -> Bool {
        guard let avahi = ChildProcess.locate("avahi-daemon") else { return false }
        return (try? await ChildProcess.run(avahi, ["--check"], timeout: .seconds(5))) != nil
    }

    private static func locate(_ name: String, package: String) throws -> String {
        guard let path = ChildProcess.locate(name) else {
            throw TestSupportError("\(name) not found: install it with `apt-get install \(package)`")
        }
        return path
    }

    /// The processes the tests started, killed when the test process exits (they would outlive it otherwise).
    private static let children: Mutex<Set<Int32>> = {
        atexit {
            for pid in AvahiDaemon.children.withLock({ $0 }) { kill(pid, SIGTERM) }
        }
        return Mutex([])
    }()
}
