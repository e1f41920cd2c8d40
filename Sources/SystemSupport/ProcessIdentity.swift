internal import Glibc

/// Which process this is, precisely enough for another process to tell whether it still runs: the machine
/// (`/etc/machine-id`, hashed for the application: the id itself is meant to stay private), its boot
/// (`/proc/sys/kernel/random/boot_id`) and pid namespace (`/proc/self/ns/pid`), the pid, and the pid's start time
/// (field 22 of `/proc/<pid>/stat`, clock ticks after boot), which a reused pid does not have.
public struct ProcessIdentity: Sendable, Equatable {
    public let host: String
    /// An application-specific hash of the machine id; empty when the machine has none.
    public let machine: String
    public let bootID: String
    public let pidNamespace: String
    public let pid: Int32
    public let startTicks: UInt64

    public init(
        host: String, machine: String, bootID: String, pidNamespace: String, pid: Int32, startTicks: UInt64
    ) {
        self.host = host
        self.machine = machine
        self.bootID = bootID
        self.pidNamespace = pidNamespace
        self.pid = pid
        self.startTicks = startTicks
    }

    /// This process.
    public static func current() -> ProcessIdentity {
        var name = [CChar](repeating: 0, count: 256)
        let host =
            gethostname(&name, name.count - 1) == 0
            ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let pid = getpid()
        let machineID = (readSmallFile("/etc/machine-id") ?? readSmallFile("/var/lib/dbus/machine-id"))?
            .split(separator: "\n").first.map(String.init)
        return ProcessIdentity(
            host: host, machine: machineID.map { applicationHash("thuis-bridge:" + $0) } ?? "",
            bootID: readSmallFile("/proc/sys/kernel/random/boot_id")?.split(separator: "\n").first.map(String.init)
                ?? "",
            pidNamespace: readLink("/proc/self/ns/pid") ?? "", pid: pid, startTicks: startTicks(of: pid) ?? 0)
    }

    /// Whether `other` runs on this machine, in this boot and this pid namespace, where its pid means the same
    /// process.
    public func sharesProcesses(with other: ProcessIdentity) -> Bool {
        sameMachine(as: other) && !bootID.isEmpty && !pidNamespace.isEmpty && bootID == other.bootID
            && pidNamespace == other.pidNamespace
    }

    /// Whether `other` ran on this machine before it last started (so it no longer runs).
    public func ranBeforeThisBoot(_ other: ProcessIdentity) -> Bool {
        sameMachine(as: other) && !bootID.isEmpty && !other.bootID.isEmpty && bootID != other.bootID
    }

    private func sameMachine(as other: ProcessIdentity) -> Bool { !machine.isEmpty && machine == other.machine }

    /// FNV-1a (64 bits) of `text`, in hex: enough to compare machines without publishing their id.
    static func applicationHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Whether the process `other` names still runs (meaningful when it ``sharesProcesses(with:)`` this one).
    public static func isRunning(_ other: ProcessIdentity) -> Bool {
        other.pid > 0 && startTicks(of: other.pid) == other.startTicks
    }

    /// The start time of process `pid` in clock ticks after boot, or nil when there is no such process.
    public static func startTicks(of pid: Int32) -> UInt64? {
        guard let stat = readSmallFile("/proc/\(pid)/stat"), let end = stat.lastIndex(of: ")") else { return nil }
        // After the command name (in parentheses, which may hold spaces): field 3 (state) onwards.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 19 else { return nil }
        return UInt64(fields[19])
    }

    /// A file of /proc (whose size is reported as 0: read until its end), at most 4 KiB.
    private static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while bytes.count < 4096 {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func readLink(_ path: String) -> String? {
        var target = [CChar](repeating: 0, count: 256)
        let count = readlink(path, &target, target.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
