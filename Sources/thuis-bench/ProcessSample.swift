import Foundation

/// Whose code a thread runs, told by the thread's name (its `comm`): OpenZWave names its threads `OZW-…`; the bridge
/// opens libcec on a thread it names `libcec` for the call, so every thread libcec starts inherits that name (Linux
/// copies the name to a new thread, and libcec's own threads start the rest). Every other thread (the main
/// thread, the MQTT network thread, dispatch workers, the web server's) is the program's own.
enum ThreadOwner: String, CaseIterable, Sendable {
    case own
    case openZWave = "OpenZWave"
    case libcec

    /// A thread of the bridge, by its name.
    static func bridge(_ name: String) -> ThreadOwner {
        name.hasPrefix("OZW") ? .openZWave : name == "libcec" ? .libcec : .own
    }
}

/// CPU time of a process and of each of its threads, with their run counts, from /proc.
struct ProcessSample: Sendable {
    struct ThreadSample: Sendable {
        /// `comm`.
        var name: String
        /// utime + stime, clock ticks.
        var ticks: Int
        /// Time on the CPU in nanoseconds (schedstat), finer than the ticks.
        var cpuNanoseconds: Int
        /// Voluntary + involuntary context switches: how often the thread was scheduled off the CPU.
        var switches: Int
    }

    var pid: Int32
    /// utime + stime of the whole process (its ended threads included), clock ticks.
    var ticks: Int
    var threads: [Int: ThreadSample]

    init?(pid: Int32) {
        guard let ticks = Self.ticks(path: "/proc/\(pid)/stat") else { return nil }
        self.pid = pid
        self.ticks = ticks
        var threads: [Int: ThreadSample] = [:]
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            let base = "/proc/\(pid)/task/\(task)"
            guard let tid = Int(task), let ticks = Self.ticks(path: "\(base)/stat"),
                let comm = try? String(contentsOfFile: "\(base)/comm", encoding: .utf8),
                let schedstat = try? String(contentsOfFile: "\(base)/schedstat", encoding: .utf8),
                let onCPU = schedstat.split(separator: " ").first.flatMap({ Int($0) }),
                let status = try? String(contentsOfFile: "\(base)/status", encoding: .utf8)
            else { continue }
            var switches = 0
            for line in status.split(separator: "\n")
            where line.hasPrefix("voluntary_ctxt_switches") || line.hasPrefix("nonvoluntary_ctxt_switches") {
                switches += Int(line.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
            }
            threads[tid] = ThreadSample(
                name: comm.trimmingCharacters(in: .newlines), ticks: ticks, cpuNanoseconds: onCPU, switches: switches)
        }
        self.threads = threads
    }

    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// utime + stime (clock ticks) from a /proc stat file.
    static func ticks(path: String) -> Int? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// Dispatch names its worker threads after the queue they first served (`com.apple.root.default-qos…`,
    /// truncated to 15 characters): they are one group.
    static func group(of name: String) -> String {
        name.contains("qos") || name.contains("dispatch") || name.contains("com.apple") ? "Dispatch workers" : name
    }
}

/// What a process used over a window: the whole process, and per group of threads of one name and owner.
struct CPUUsage: Sendable {
    struct Group: Sendable {
        var name: String
        var owner: ThreadOwner
        var threads: Int
        /// utime + stime, seconds per minute.
        var secondsPerMinute: Double
        /// schedstat, seconds per minute.
        var preciseSecondsPerMinute: Double
        var wakeupsPerMinute: Double
    }

    /// utime + stime of the process, seconds per minute.
    var processSecondsPerMinute: Double
    var threads: Int
    /// By CPU time, largest first.
    var groups: [Group]

    /// From `before` to `after` over `minutes`; `classify` gives a thread's group name and owner from its id and
    /// name. Threads that ended during the window count only in the process's figure; new ones count from zero.
    init(
        from before: ProcessSample, to after: ProcessSample, minutes: Double,
        classify: (_ tid: Int, _ name: String) -> (group: String, owner: ThreadOwner)
    ) {
        processSecondsPerMinute = Double(after.ticks - before.ticks) / ProcessSample.ticksPerSecond / minutes
        threads = after.threads.count
        var groups: [String: Group] = [:]
        for (tid, thread) in after.threads {
            let (name, owner) = classify(tid, thread.name)
            let old = before.threads[tid]
            let key = "\(owner.rawValue)/\(name)"
            var group =
                groups[key]
                ?? Group(
                    name: name, owner: owner, threads: 0, secondsPerMinute: 0, preciseSecondsPerMinute: 0,
                    wakeupsPerMinute: 0)
            group.threads += 1
            group.secondsPerMinute +=
                Double(thread.ticks - (old?.ticks ?? 0)) / ProcessSample.ticksPerSecond / minutes
            group.preciseSecondsPerMinute += Double(thread.cpuNanoseconds - (old?.cpuNanoseconds ?? 0)) / 1e9 / minutes
            group.wakeupsPerMinute += Double(thread.switches - (old?.switches ?? 0)) / minutes
            groups[key] = group
        }
        self.groups = groups.values.sorted {
            ($0.preciseSecondsPerMinute, $0.wakeupsPerMinute) > ($1.preciseSecondsPerMinute, $1.wakeupsPerMinute)
        }
    }

    /// utime + stime of the process less that of the groups of the other owners, seconds per minute: `owner`'s
    /// share with the time of threads that ended during the window, when those were `owner`'s.
    func processSecondsPerMinute(lessThanOf others: [ThreadOwner]) -> Double {
        processSecondsPerMinute - others.reduce(0) { $0 + secondsPerMinute($1) }
    }

    /// utime + stime of `owner`'s threads, seconds per minute.
    func secondsPerMinute(_ owner: ThreadOwner) -> Double {
        groups.filter { $0.owner == owner }.reduce(0) { $0 + $1.secondsPerMinute }
    }

    func preciseSecondsPerMinute(_ owner: ThreadOwner) -> Double {
        groups.filter { $0.owner == owner }.reduce(0) { $0 + $1.preciseSecondsPerMinute }
    }

    func threads(_ owner: ThreadOwner) -> Int { groups.filter { $0.owner == owner }.reduce(0) { $0 + $1.threads } }

    func wakeupsPerMinute(_ owner: ThreadOwner) -> Double {
        groups.filter { $0.owner == owner }.reduce(0) { $0 + $1.wakeupsPerMinute }
    }

    /// `name ×threads 0.0123 s (schedstat) 120/min; …`, the largest `limit` groups.
    func summary(limit: Int = 8) -> String {
        groups.prefix(limit).map {
            "\($0.name) ×\($0.threads) "
                + String(format: "%.4f s %.0f/min", $0.preciseSecondsPerMinute, $0.wakeupsPerMinute)
        }.joined(separator: "; ")
    }
}
