import CECEmulator
import Foundation
import LabSupport
import ZWaveEmulator

/// Scenario 8: the bridge at rest. Three bridges run side by side, each with its own broker and emulators: the
/// emulated default Z-Wave network (FGD212 node 2, PowerNode 6 node 3) only, the emulated CEC adapter with its TV
/// only, and both; beside them Debian's `cec-client -m` (the same libcec) on an emulated adapter of its own: libcec's
/// own cost at rest. Once every bridge has published every state, its Z-Wave start-up traffic is over and `settle`
/// has passed since every start (past the CEC backend's minute of fast TV polls after the connection), the CPU time
/// of each process and each of its threads (utime + stime from /proc/<pid>/task/*/stat, names from `comm`; schedstat
/// beside it, finer) is read at the start and at the end of one `window` shared by all four. After the window a
/// `/set` to each device must still reach the hardware and come back as the state (correctness).
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
        var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }
        var hasZWave: Bool { self != .cec }
        var hasCEC: Bool { self != .zwave }
    }

    struct Reading: Sendable {
        var setup: Setup
        var usage: CPUUsage?
        /// Frames the bridge sent to the emulated stick / transmitted on the emulated CEC bus during the window.
        var zwaveFrames: Int?
        var cecFrames: Int?
        var mqttMessages = 0
        var checks: [ScenarioResult.Check] = []
    }

    struct Outcome: Sendable {
        var readings: [Reading]
        /// `cec-client -m` over the same window; nil when it could not run.
        var cecClient: CPUUsage?
        var cecClientProblem: String?
    }

    /// A bridge started (`rig`), or why not.
    struct Started: Sendable {
        var setup: Setup
        var rig: Rig?
        var error: String?
    }

    /// One bridge with its broker, emulators and clients, started and published.
    struct Rig: Sendable {
        var setup: Setup
        var broker: MosquittoBroker
        var zwave: ZWaveFixture?
        var cec: CECFixture?
        var watcher: BenchClient
        var commander: BenchClient
        var bridge: BridgeRun

        func stop() async {
            await bridge.process.stop(timeout: .seconds(10))
            await commander.close()
            await watcher.close()
            await zwave?.stop()
            cec?.stop()
            await broker.stop()
        }
    }

    static func run(
        run: BenchDirectory, settle: Duration, window: Duration, log: @escaping @Sendable (String) -> Void
    ) async -> Outcome {
        let started = await withTaskGroup(of: Started.self) { group in
            for setup in Setup.allCases {
                group.addTask {
                    do { return Started(setup: setup, rig: try await start(setup, run: run)) } catch {
                        return Started(setup: setup, error: "\(error)")
                    }
                }
            }
            var started: [Started] = []
            for await result in group { started.append(result) }
            return started.sorted { $0.setup.order < $1.setup.order }
        }
        var rigs: [Rig] = []
        var readings: [Reading] = []
        for item in started {
            if let rig = item.rig {
                rigs.append(rig)
            } else {
                let error = item.error ?? "unknown"
                log("  8. \(item.setup.rawValue): failed: \(error)")
                var reading = Reading(setup: item.setup)
                reading.checks.append(
                    .init(
                        name: "\(item.setup.rawValue): the scenario ran to its end", passed: false,
                        detail: String(error.prefix(300))))
                readings.append(reading)
            }
        }
        var cecClient: ChildProcess?
        var problem: String?
        var clientFixture: CECFixture?
        do {
            let directory = try run.subdirectory("idle-cec-client")
            let fixture = try CECFixture(link: (directory as NSString).appendingPathComponent("cec"))
            clientFixture = fixture
            let process = try ChildProcess.bench(
                "/usr/bin/cec-client", ["-m", "-d", "1", fixture.link], directory: directory,
                logPath: (directory as NSString).appendingPathComponent("cec-client.log"), keepInputOpen: true)
            if await process.waitForOutput("waiting for input", timeout: .seconds(30)) != nil {
                cecClient = process
            } else {
                problem = "cec-client did not open the adapter: \(process.outputText.suffix(500))"
                await process.stop(timeout: .seconds(10))
            }
        } catch {
            problem = "cec-client could not start: \(error)"
        }
        if let problem { log("  8. \(problem)") }

        // One window for all: from `settle` after the last start.
        let starts: [ContinuousClock.Instant] =
            rigs.map(\.bridge.process.started) + [cecClient?.started].compactMap { $0 }
        let latest = starts.max() ?? ContinuousClock.now
        try? await Task.sleep(until: max(ContinuousClock.now, latest + settle), clock: .continuous)
        let marks = rigs.map { ($0.watcher.inbox.mark, $0.zwave?.frames.mark, $0.cec?.emulator.transmittedCount) }
        let before = rigs.map { ProcessSample(pid: $0.bridge.process.pid) }
        let clientBefore = cecClient.flatMap { ProcessSample(pid: $0.pid) }
        let windowStart = ContinuousClock.now
        try? await Task.sleep(for: window)
        let after = rigs.map { ProcessSample(pid: $0.bridge.process.pid) }
        let clientAfter = cecClient.flatMap { ProcessSample(pid: $0.pid) }
        let minutes = (ContinuousClock.now - windowStart).milliseconds / 60_000

        var outcome = Outcome(readings: [], cecClient: nil, cecClientProblem: problem)
        if let clientBefore, let clientAfter, let pid = cecClient?.pid {
            // cec-client's main thread waits on its input; every other thread is libcec's.
            outcome.cecClient = CPUUsage(from: clientBefore, to: clientAfter, minutes: minutes) { tid, name in
                tid == pid ? ("\(name) (main)", .own) : (ProcessSample.group(of: name), .libcec)
            }
        } else if cecClient != nil {
            outcome.cecClientProblem = "cec-client ended during the window"
        }
        await cecClient?.stop()
        clientFixture?.stop()

        for (index, rig) in rigs.enumerated() {
            var reading = Reading(setup: rig.setup)
            if let before = before[index], let after = after[index], minutes > 0 {
                reading.usage = CPUUsage(from: before, to: after, minutes: minutes) { _, name in
                    (ProcessSample.group(of: name), ThreadOwner.bridge(name))
                }
            }
            let (mqtt, frames, cecFrames) = marks[index]
            reading.mqttMessages = rig.watcher.inbox.items(from: mqtt).count
            if let zwave = rig.zwave, let frames { reading.zwaveFrames = zwave.frames.items(from: frames).count }
            if let cec = rig.cec, let cecFrames { reading.cecFrames = cec.emulator.transmittedCount - cecFrames }
            reading.checks.append(
                .init(
                    name: "\(rig.setup.rawValue): the bridge ran through the window", passed: after[index] != nil,
                    detail: after[index] == nil ? "the process was gone" : ""))
            log(
                "  8. \(rig.setup.rawValue): "
                    + (reading.usage.map { String(format: "%.3f s CPU/min, ", $0.processSecondsPerMinute) } ?? "")
                    + (reading.usage?.summary() ?? "n/a"))
            do { reading.checks += try await stillAtWork(rig) } catch {
                reading.checks.append(
                    .init(
                        name: "\(rig.setup.rawValue): commands after the rest", passed: false,
                        detail: "\(error)".prefix(300).description))
            }
            readings.append(reading)
        }
        for rig in rigs { await rig.stop() }
        outcome.readings = Setup.allCases.compactMap { setup in readings.first { $0.setup == setup } }
        return outcome
    }

    /// Starts `setup`'s bridge and waits until it has published every state and the stick is quiet.
    private static func start(_ setup: Setup, run: BenchDirectory) async throws -> Rig {
        let directory = try run.subdirectory("idle-\(setup.key)")
        let broker = try await MosquittoBroker.bench(directory: run)
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
        let rig = Rig(
            setup: setup, broker: broker, zwave: zwave, cec: cec, watcher: watcher, commander: commander,
            bridge: bridge)
        let topics = (zwave?.stateTopics() ?? []) + (cec == nil ? [] : ["Thuis/device/bench/tv"])
        for topic in topics where await watcher.wait(topic: topic, from: 0, timeout: .seconds(120)) == nil {
            let output = bridge.process.outputText.suffix(3000)
            await rig.stop()
            throw BenchError("the bridge never published \(topic):\n\(output)")
        }
        if let zwave { _ = await zwave.waitForQuiet(.seconds(2), timeout: .seconds(120)) }
        return rig
    }

    /// Still at work after the rest: a command to each device reaches the hardware and is published.
    private static func stillAtWork(_ rig: Rig) async throws -> [ScenarioResult.Check] {
        var checks: [ScenarioResult.Check] = []
        let name = rig.setup.rawValue
        if let zwave = rig.zwave {
            let frames = zwave.frames.mark
            let states = rig.watcher.inbox.mark
            try await rig.commander.publish("Thuis/device/bench/d2/set", "42")
            let frame = await zwave.frames.next(from: frames, timeout: .seconds(10)) {
                $0.multilevelSetLevel(node: 2) == 42
            }
            let state = await rig.watcher.wait(
                topic: "Thuis/device/bench/d2", text: "42", from: states, timeout: .seconds(10))
            checks.append(
                .init(
                    name: "\(name): /set 42 after the rest reached the dimmer and was published",
                    passed: frame != nil && state != nil,
                    detail: frame == nil ? "no Set at the stick" : state == nil ? "no state 42" : ""))
        }
        if let cec = rig.cec {
            let states = rig.watcher.inbox.mark
            try await rig.commander.publish("Thuis/device/bench/tv/set", "on")
            let state = await rig.watcher.wait(
                topic: "Thuis/device/bench/tv", text: "on", from: states, timeout: .seconds(10))
            let on = cec.emulator.state.tvPoweredOn
            checks.append(
                .init(
                    name: "\(name): /set on after the rest switched the TV on and was published",
                    passed: on && state != nil, detail: on ? (state == nil ? "no state on" : "") : "the TV is off"))
        }
        return checks
    }
}
