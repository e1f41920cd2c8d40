import Foundation
import LabSupport
internal import MQTTDriver
import ZWaveEmulator

/// Scenario 4 (and 5): from the bridge's start to every mapped device's state published, cold (no network
/// cache) and with the cache; baseline: MinOZW's time to "all nodes queried" on the same emulated network.
/// The memory at rest (RSS, PSS, anonymous) of the cold run is read, and with `withCEC` that of one more cached run
/// with a CEC adapter (scenario 5).
enum ScaleScenario {
    struct Outcome: Sendable {
        var nodes: Int
        var devices: Int
        var cold: Double?
        var cached: Double?
        var minOZWCold: Double?
        var minOZWCached: Double?
        /// Seconds from start to every power and energy value published (reported, not judged).
        var metersCold: Double?
        var metersCached: Double?
        /// At rest: the cold run (Z-Wave only) and the cached run with CEC.
        var restZWave: MemoryReading?
        var restWithCEC: MemoryReading?
        /// Seconds from spawn to the first frame at the stick (process start-up until the port is opened).
        var firstFrame: [String: Double] = [:]
        var notes: [String] = []
        /// Correctness of the cold and cached runs (every state published), and of the runs with CEC.
        var startChecks: [ScenarioResult.Check] = []
        var restChecks: [ScenarioResult.Check] = []
        /// The `neighbors` request for every node, sent at rest after the cached start: request → response, s.
        var neighbors: Double?
        /// The `network_stats` request (every node), sent likewise: request → response, s.
        var networkStats: Double?
        /// `/set` → SEND_DATA of one dimmer (ms) at rest after the cached start, and while every node reports its
        /// power once a minute (meter load).
        var setAtRest: [Double] = []
        var setUnderMeterLoad: [Double] = []
        /// The dashboard's network and map pages in headless Chromium, against the cached bridge at rest.
        var pages: PageRender.Outcome?
    }

    /// When, after the bridge's start, its RSS counts as at rest.
    static let restAfter: Duration = .seconds(15)

    static func run(
        run: BenchDirectory, network: NetworkDescription, label: String, withCEC: Bool,
        radioLatency: Duration, log: (String) -> Void
    ) async throws -> Outcome {
        let directory = try run.subdirectory("scale-\(label)")
        let broker = try await MosquittoBroker.bench(directory: run)
        let watcher = try await BenchClient(port: broker.port, name: "scale-\(label)")
        try await watcher.subscribe("Thuis/#")
        let fixture = try ZWaveFixture(
            network: network, radioLatency: radioLatency,
            link: (directory as NSString).appendingPathComponent("zwave"))
        let topics = fixture.stateTopics()
        let meterTopics = fixture.meterTopics()
        var outcome = Outcome(nodes: network.nodes.filter { $0.kind != .joining }.count, devices: topics.count)
        let state = (directory as NSString).appendingPathComponent("state")
        let timeout: Duration = .seconds(240)

        func bridgeRun(
            _ what: String, cec: String = "", web: String = ""
        ) async throws -> (Double?, Double?, BridgeRun) {
            let mark = watcher.inbox.mark
            let frameMark = fixture.frames.mark
            let body = fixture.zwaveSection(stateDirectory: state, refreshAfterSet: false) + "\n" + cec + web
            let bridge = try BridgeRun.start(
                name: "scale", brokerPort: broker.port, body: body, directory: directory)
            let elapsed = await allStates(
                watcher, topics: topics, from: mark, since: bridge.process.started, timeout: timeout)
            let first = fixture.frames.items(from: frameMark).first.map {
                ($0.time - bridge.process.started).milliseconds / 1000
            }
            outcome.firstFrame["bridge \(what)"] = first
            log(
                "  \(label) bridge \(what): \(elapsed.map { seconds($0) } ?? "timeout") for \(topics.count) states, first frame after \(first.map { seconds($0) } ?? "n/a")"
            )
            if elapsed == nil { outcome.notes.append("bridge \(what): not every state within \(timeout)") }
            let meters = await allStates(
                watcher, topics: meterTopics, from: mark, since: bridge.process.started, timeout: timeout)
            log(
                "  \(label) bridge \(what): \(meters.map { seconds($0) } ?? "timeout") for \(meterTopics.count) power and energy values"
            )
            let checks = [
                ScenarioResult.Check(
                    name: "\(label) nodes, \(what): every state published", passed: elapsed != nil,
                    detail: elapsed == nil ? "not all \(topics.count) within \(timeout)" : ""),
                ScenarioResult.Check(
                    name: "\(label) nodes, \(what): every power and energy value published", passed: meters != nil,
                    detail: meters == nil ? "not all \(meterTopics.count) within \(timeout)" : ""),
            ]
            if cec.isEmpty { outcome.startChecks += checks } else { outcome.restChecks += checks }
            return (elapsed, meters, bridge)
        }

        // Cold.
        let (cold, metersCold, first) = try await bridgeRun("cold")
        outcome.cold = cold
        outcome.metersCold = metersCold
        _ = await fixture.waitForQuiet(.seconds(1), timeout: .seconds(60))
        try await Task.sleep(until: max(ContinuousClock.now, first.process.started + restAfter), clock: .continuous)
        outcome.restZWave = first.process.memory
        await first.process.stop(timeout: .seconds(20))  // SIGTERM writes the network cache
        // Cached, with the dashboard on (after the cold run's memory reading, which is without it).
        let webPort = try FreePort.next()
        let (cached, metersCached, second) = try await bridgeRun(
            "cached", web: "\n[web]\nlisten = \"127.0.0.1:\(webPort)\"\n")
        outcome.cached = cached
        outcome.metersCached = metersCached
        _ = await fixture.waitForQuiet(.seconds(1), timeout: .seconds(60))
        outcome.neighbors = await requestAnswer("neighbors", second, watcher)
        outcome.networkStats = await requestAnswer("network_stats", second, watcher)
        if let dimmer = network.nodes.first(where: { $0.kind == .fgd212 })?.id {
            outcome.pages = await PageRender.measure(
                port: webPort, nodes: outcome.nodes, node: Int(dimmer), directory: directory, log: log)
        }
        (outcome.setAtRest, outcome.setUnderMeterLoad) = await setsUnderMeterLoad(
            fixture: fixture, watcher: watcher, log: log)
        await second.process.stop(timeout: .seconds(20))

        if withCEC {
            // The same network, cache and broker, with a CEC adapter and its TV.
            let what = "cached + CEC"
            let cecFixture = try CECFixture(link: (directory as NSString).appendingPathComponent("cec"))
            let tvMark = watcher.inbox.mark
            let (_, _, bridge) = try await bridgeRun(what, cec: cecFixture.cecSection)
            let tv = await watcher.wait(topic: "Thuis/device/bench/tv", from: tvMark, timeout: .seconds(30))
            outcome.restChecks.append(
                ScenarioResult.Check(
                    name: "\(label) nodes, \(what): the TV's state published", passed: tv != nil,
                    detail: tv == nil ? "not within 30 s" : ""))
            _ = await fixture.waitForQuiet(.seconds(2), timeout: .seconds(20))
            // At rest: settled, 15 s after the start (past the network cache write, and the heap trim after it).
            try await Task.sleep(until: max(.now + .seconds(2), bridge.process.started + restAfter), clock: .continuous)
            outcome.restWithCEC = bridge.process.memory
            log("  \(label) bridge \(what): at rest \(outcome.restWithCEC?.summary ?? "n/a")")
            await bridge.process.stop(timeout: .seconds(20))
            cecFixture.stop()
        }
        await fixture.stop()
        await watcher.close()
        await broker.stop()

        // MinOZW on a fresh emulator with the same network, cold then with its own cache.
        let minDirectory = try run.subdirectory("minozw-\(label)")
        let minFixture = try ZWaveFixture(
            network: network, radioLatency: radioLatency,
            link: (minDirectory as NSString).appendingPathComponent("zwave"))
        for what in ["cold", "cached"] {
            let frameMark = minFixture.frames.mark
            let spawned = ContinuousClock.now
            let elapsed = try await MinOZW.timeToAllNodesQueried(
                link: minFixture.link, directory: minDirectory, log: log)
            if what == "cold" { outcome.minOZWCold = elapsed } else { outcome.minOZWCached = elapsed }
            let first = minFixture.frames.items(from: frameMark).first.map { ($0.time - spawned).milliseconds / 1000 }
            outcome.firstFrame["MinOZW \(what)"] = first
            log(
                "  \(label) MinOZW \(what): \(elapsed.map { seconds($0) } ?? "n/a"), first frame after \(first.map { seconds($0) } ?? "n/a")"
            )
        }
        await minFixture.stop()
        return outcome
    }

    /// Seconds from `since` until every topic had a message at index ≥ `from`; nil on timeout.
    static func allStates(
        _ watcher: BenchClient, topics: [String], from: Int, since: ContinuousClock.Instant,
        timeout: Duration
    ) async -> Double? {
        var missing = Set(topics)
        var last = since
        var scanned = from
        let deadline = ContinuousClock.now + timeout
        while !missing.isEmpty {
            for message in watcher.inbox.items(from: scanned) {
                scanned = message.index + 1
                if missing.remove(message.item.topic) != nil { last = message.time }
            }
            if missing.isEmpty { break }
            guard ContinuousClock.now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return (last - since).milliseconds / 1000
    }
}
