import CECEmulator
import Foundation
import ZWaveEmulator

/// Scenario 8: the bridge at rest. Three bridges run side by side, each with its own broker and emulators: the
/// emulated default Z-Wave network (FGD212 node 2, PowerNode 6 node 3) only, the emulated CEC adapter with its TV
/// only, and both. Once each has published every state, its Z-Wave start-up traffic is over and `settle` has passed
/// since its start (past the CEC backend's minute of fast polling after the connection), the CPU time the process
/// uses (utime + stime from /proc/<pid>/stat; and, finer, its threads' time on the CPU from schedstat) is read over
/// `window`, with every thread's context switches (/proc/<pid>/task/*/status: voluntary + involuntary, i.e. how often
/// it ran) to attribute the wake-ups. libcec's threads are named `libcec` by the bridge, OpenZWave's `OZW-*`. After
/// the window a `/set` to each device must still reach the hardware and come back as the state (correctness).
enum IdleScenario {
    enum Setup: String, CaseIterable, Sendable {
        case zwave = "Z-Wave only"
        case cec = "CEC only"
        case both = "Z-Wave + CEC"

        var key: String {
            switch self {
            case .zwave: "zwave"
            case .cec: "cec"
            case .both: "zwave_cec"
            }
        }
        var hasZWave: Bool { self != .cec }
        var hasCEC: Bool { self != .zwave }
    }

    /// The threads of one name (dispatch's workers, whatever they were called, count as one group).
    struct ThreadGroup: Sendable {
        var name: String
        var threads: Int
        var wakeupsPerMinute: Double
        var cpuSecondsPerMinute: Double
    }

    struct Reading: Sendable {
        var setup: Setup
        /// utime + stime (10 ms ticks) per minute.
        var cpuSecondsPerMinute: Double?
        /// The threads' time on the CPU (schedstat, nanoseconds) per minute.
        var preciseCPUSecondsPerMinute: Double?
        var threads: Int?
        var wakeupsPerMinute: Double?
        var groups: [ThreadGroup] = []
        /// Frames the bridge sent to the emulated stick / transmitted on the emulated CEC bus during the window.
        var zwaveFrames: Int?
        var cecFrames: Int?
        var mqttMessages = 0
        var checks: [ScenarioResult.Check] = []
    }

    static func run(
        run: BenchDirectory, settle: Duration, window: Duration, log: @escaping @Sendable (String) -> Void
    ) async -> [Reading] {
        await withTaskGroup(of: Reading.self) { group in
            for setup in Setup.allCases {
                group.addTask {
                    do {
                        return try await measure(setup, run: run, settle: settle, window: window, log: log)
                    } catch {
                        log("  8. \(setup.rawValue): failed: \(error)")
                        var reading = Reading(setup: setup)
                        reading.checks.append(
                            .init(
                                name: "\(setup.rawValue): the scenario ran to its end", passed: false,
                                detail: "\(error)".prefix(300).description))
                        return reading
                    }
                }
            }
            var readings: [Reading] = []
            for await reading in group { readings.append(reading) }
            return Setup.allCases.compactMap { setup in readings.first { $0.setup == setup } }
        }
    }

    private static func measure(
        _ setup: Setup, run: BenchDirectory, settle: Duration, window: Duration, log: @Sendable (String) -> Void
    ) async throws -> Reading {
        let directory = try run.subdirectory("idle-\(setup.key)")
        let broker = try await BenchBroker(directory: run)
        let zwave =
            setup.hasZWave
            ? try ZWaveFixture(
                network: .defaultNetwork, radioLatency: ZWaveStickEmulator.realisticRadioLatency,
                link: (directory as NSString).appendingPathComponent("zwave")) : nil
        let cec = setup.hasCEC ? try CECFixture(link: (directory as NSString).appendingPathComponent("cec")) : nil
        let watcher = try await BenchClient(port: broker.port, name: "idle-\(setup.key)-watcher")
        try await watcher.subscribe("Thuis/#")
        let commander = try await BenchClient(port: broker.port, name: "idle-\(setup.key)-commander")
        var body = ""
        if let zwave {
            body += zwave.zwaveSection(
                stateDirectory: (directory as NSString).appendingPathComponent("state"), refreshAfterSet: false)
        }
        if let cec { body += "\n" + cec.cecSection }
        let bridge = try BridgeRun.start(
            name: "idle-\(setup.key)", brokerPort: broker.port, body: body, directory: directory)
        func stopAll() async {
            await bridge.process.stop()
            await commander.close()
            await watcher.close()
            await zwave?.stop()
            cec?.stop()
            await broker.stop()
        }
        var reading = Reading(setup: setup)
        let topics = (zwave?.stateTopics() ?? []) + (cec == nil ? [] : ["Thuis/device/bench/tv"])
        for topic in topics where await watcher.wait(topic: topic, from: 0, timeout: .seconds(120)) == nil {
            let output = bridge.process.output.suffix(3000)
            await stopAll()
            throw BenchError("the bridge never published \(topic):\n\(output)")
        }
        if let zwave { _ = await zwave.waitForQuiet(.seconds(2), timeout: .seconds(120)) }
        try await Task.sleep(until: max(ContinuousClock.now, bridge.process.started + settle), clock: .continuous)

        let pid = bridge.process.pid
        let mqttMark = watcher.inbox.mark
        let frameMark = zwave?.frames.mark
        let cecMark = cec?.emulator.transmittedCount
        let before = ProcessSample(pid: pid)
        let started = ContinuousClock.now
        try await Task.sleep(for: window)
        let after = ProcessSample(pid: pid)
        let minutes = (ContinuousClock.now - started).milliseconds / 60_000
        if let before, let after, minutes > 0 {
            reading.cpuSecondsPerMinute = (after.cpuSeconds - before.cpuSeconds) / minutes
            reading.preciseCPUSecondsPerMinute = after.threadCPUSeconds(since: before) / minutes
            reading.threads = after.threads.count
            reading.groups = after.groups(since: before, minutes: minutes)
            reading.wakeupsPerMinute = reading.groups.reduce(0) { $0 + $1.wakeupsPerMinute }
        }
        reading.mqttMessages = watcher.inbox.items(from: mqttMark).count
        if let zwave, let frameMark { reading.zwaveFrames = zwave.frames.items(from: frameMark).count }
        if let cec, let cecMark { reading.cecFrames = cec.emulator.transmittedCount - cecMark }
        log(
            "  8. \(setup.rawValue): \(reading.cpuSecondsPerMinute.map { String(format: "%.3f", $0) } ?? "n/a") s CPU/min, "
                + "\(reading.threads.map(String.init) ?? "n/a") threads")

        // Still at work after the rest: a command to each device reaches the hardware and is published.
        reading.checks.append(
            .init(
                name: "\(setup.rawValue): the bridge ran through the window", passed: after != nil,
                detail: after == nil ? "the process was gone" : ""))
        if let zwave {
            let frames = zwave.frames.mark
            let states = watcher.inbox.mark
            try await commander.publish("Thuis/device/bench/d2/set", "42")
            let frame = await zwave.frames.next(from: frames, timeout: .seconds(10)) {
                $0.multilevelSetLevel(node: 2) == 42
            }
            let state = await watcher.wait(
                topic: "Thuis/device/bench/d2", text: "42", from: states, timeout: .seconds(10))
            reading.checks.append(
                .init(
                    name: "\(setup.rawValue): /set 42 after the rest reached the dimmer and was published",
                    passed: frame != nil && state != nil,
                    detail: frame == nil ? "no Set at the stick" : state == nil ? "no state 42" : ""))
        }
        if let cec {
            let states = watcher.inbox.mark
            try await commander.publish("Thuis/device/bench/tv/set", "on")
            let state = await watcher.wait(
                topic: "Thuis/device/bench/tv", text: "on", from: states, timeout: .seconds(10))
            let on = cec.emulator.state.tvPoweredOn
            reading.checks.append(
                .init(
                    name: "\(setup.rawValue): /set on after the rest switched the TV on and was published",
                    passed: on && state != nil, detail: on ? (state == nil ? "no state on" : "") : "the TV is off"))
        }
        await stopAll()
        return reading
    }
}

/// CPU time of a process and the run count and CPU time of each of its threads, from /proc.
struct ProcessSample: Sendable {
    struct ThreadSample: Sendable {
        var name: String
        /// Voluntary + involuntary context switches: how often the thread was scheduled off the CPU.
        var switches: Int
        /// Time on the CPU in nanoseconds (/proc/<pid>/task/<tid>/schedstat), finer than utime + stime's ticks.
        var cpuNanoseconds: Int
    }

    /// utime + stime of the process, in seconds (10 ms ticks).
    var cpuSeconds: Double
    var threads: [Int: ThreadSample]
    /// The time on the CPU, in seconds (nanosecond resolution), of the threads that run now since `earlier`: a
    /// thread started since counts from zero; one that ended since is not counted (dispatch retires idle workers,
    /// with whatever they did at the start).
    func threadCPUSeconds(since earlier: ProcessSample) -> Double {
        Double(threads.reduce(0) { $0 + $1.value.cpuNanoseconds - (earlier.threads[$1.key]?.cpuNanoseconds ?? 0) })
            / 1e9
    }

    init?(pid: Int32) {
        guard let (user, system) = Self.times(path: "/proc/\(pid)/stat") else { return nil }
        cpuSeconds = Double(user + system) / Self.ticksPerSecond
        var threads: [Int: ThreadSample] = [:]
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            guard let tid = Int(task),
                let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
                let schedstat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8),
                let onCPU = schedstat.split(separator: " ").first.flatMap({ Int($0) }),
                let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
            else { continue }
            var switches = 0
            for line in status.split(separator: "\n")
            where line.hasPrefix("voluntary_ctxt_switches") || line.hasPrefix("nonvoluntary_ctxt_switches") {
                switches += Int(line.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
            }
            let name = String(stat[stat.index(after: open)..<close])
            threads[tid] = ThreadSample(name: name, switches: switches, cpuNanoseconds: onCPU)
        }
        self.threads = threads
    }

    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// utime and stime (clock ticks) from a /proc stat file.
    static func times(path: String) -> (Int, Int)? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return (user, system)
    }

    /// Dispatch names its worker threads after the queue they first served (`com.apple.root.default-qos…`,
    /// truncated to 15 characters): they are one group.
    static func group(of name: String) -> String {
        name.contains("qos") || name.contains("dispatch") || name.contains("com.apple") ? "Dispatch workers" : name
    }

    /// Per thread group: threads now, wake-ups and CPU seconds per minute since `earlier` (threads that ended
    /// meanwhile are not counted; new ones count from zero).
    func groups(since earlier: ProcessSample, minutes: Double) -> [IdleScenario.ThreadGroup] {
        var groups: [String: IdleScenario.ThreadGroup] = [:]
        for (tid, thread) in threads {
            let name = Self.group(of: thread.name)
            let old = earlier.threads[tid]
            var group = groups[name] ?? .init(name: name, threads: 0, wakeupsPerMinute: 0, cpuSecondsPerMinute: 0)
            group.threads += 1
            group.wakeupsPerMinute += Double(thread.switches - (old?.switches ?? 0)) / minutes
            group.cpuSecondsPerMinute += Double(thread.cpuNanoseconds - (old?.cpuNanoseconds ?? 0)) / 1e9 / minutes
            groups[name] = group
        }
        return groups.values.sorted { $0.wakeupsPerMinute > $1.wakeupsPerMinute }
    }
}

extension ThuisBench {
    static func idle(_ readings: [IdleScenario.Reading], window: Duration) -> ScenarioResult {
        var result = ScenarioResult(name: "8. idle CPU and threads (\(Int(window.milliseconds / 1000)) s at rest)")
        let peers: [IdleScenario.Setup: String] = [
            .zwave: "Python Z-Wave peer 0.02 s/min", .cec: "Python CEC peer 0.34 s/min (polls the TV every ~14 s)",
            .both: "",
        ]
        for reading in readings {
            let setup = reading.setup
            let cpu = reading.cpuSecondsPerMinute
            result.row(
                "\(setup.rawValue): CPU per minute", cpu.map { String(format: "%.3f s", $0) } ?? "n/a",
                baseline: peers[setup] ?? "",
                comparison: [
                    reading.preciseCPUSecondsPerMinute.map { String(format: "threads' schedstat %.4f s", $0) },
                    cpu.map { String(format: "%.2f %% of a core", $0 / 60 * 100) },
                ].compactMap { $0 }.joined(separator: ", "),
                goal: setup == .both ? "≤ 0.2 s" : "", met: setup == .both ? cpu.map { $0 <= 0.2 } : nil)
            let traffic = [
                reading.zwaveFrames.map { "\($0) frames to the stick" },
                reading.cecFrames.map { "\($0) on the CEC bus" },
                "\(reading.mqttMessages) MQTT messages",
            ].compactMap { $0 }.joined(separator: ", ")
            result.row(
                "  threads / wake-ups per minute",
                "\(reading.threads.map(String.init) ?? "n/a") / \(reading.wakeupsPerMinute.map { String(format: "%.0f", $0) } ?? "n/a")",
                comparison: traffic)
            let top = reading.groups.prefix(6).map {
                "\($0.name) ×\($0.threads) "
                    + String(format: "%.0f/min %.4f s", $0.wakeupsPerMinute, $0.cpuSecondsPerMinute)
            }
            if !top.isEmpty {
                result.notes.append("\(setup.rawValue), wake-ups by thread: " + top.joined(separator: "; "))
            }
            result.numbers["\(setup.key)_cpu_s_per_min"] = cpu ?? -1
            result.numbers["\(setup.key)_schedstat_cpu_s_per_min"] = reading.preciseCPUSecondsPerMinute ?? -1
            result.numbers["\(setup.key)_threads"] = Double(reading.threads ?? -1)
            result.numbers["\(setup.key)_wakeups_per_min"] = reading.wakeupsPerMinute ?? -1
            for group in reading.groups {
                let name = group.name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }
                result.numbers["\(setup.key)_wakeups_per_min_\(String(name))"] = group.wakeupsPerMinute
            }
            result.checks += reading.checks
        }
        return result
    }
}
