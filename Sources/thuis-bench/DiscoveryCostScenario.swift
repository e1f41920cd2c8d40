import Foundation
import LabSupport
internal import MQTTDriver
import ZWaveEmulator

/// Scenario 10: what Home Assistant discovery costs, on the scale network (`nodes` nodes) and the CEC TV. One broker,
/// one emulated network and one network cache; the bridge starts cold once (discovery on), then with the cache twice
/// with `[homeassistant] enabled = false` and twice with `true`, alternating, each run's memory read at rest (15 s after
/// its start, as in scenario 5): discovery's cost is the difference of the means. Timed, with discovery on: the start
/// to the last discovery config received by a subscriber of `homeassistant/#` (the start-up's publication settling),
/// next to the start to every device's state published; and, after Home Assistant's birth message
/// (`homeassistant/status` `online`), the republication of every config, from the first to the last one received
/// (the bridge first waits a random 0.5-2.5 s, as Home Assistant asks integrations to).
enum DiscoveryCostScenario {
    struct Outcome: Sendable {
        var nodes = 0
        var devices = 0
        /// Distinct config topics the bridge published (non-empty) by the end of a start with discovery on.
        var configs = 0
        /// Memory at rest of the cached starts, by whether discovery was on.
        var rest: [Bool: [MemoryReading]] = [:]
        /// Per start with discovery on (cold first): seconds from the start to the last config received, and to every
        /// state published.
        var settle: [(lastConfig: Double, states: Double)] = []
        /// The republication after Home Assistant's birth: configs received, first → last (seconds).
        var republished = 0
        var republishSeconds: Double?
        var checks: [ScenarioResult.Check] = []
    }

    static func run(
        run: BenchDirectory, nodes: Int, radioLatency: Duration, log: (String) -> Void
    ) async throws -> Outcome {
        let directory = try run.subdirectory("discovery")
        let broker = try await MosquittoBroker.bench(directory: run)
        let watcher = try await BenchClient(port: broker.port, name: "discovery-watcher")
        try await watcher.subscribe("Thuis/#")
        try await watcher.subscribe("homeassistant/#")
        let network = ZWaveFixture.scaleNetwork(count: nodes)
        let fixture = try ZWaveFixture(
            network: network, radioLatency: radioLatency,
            link: (directory as NSString).appendingPathComponent("zwave"))
        let cec = try CECFixture(link: (directory as NSString).appendingPathComponent("cec"))
        let topics = fixture.stateTopics() + ["Thuis/device/bench/tv"]
        var outcome = Outcome(nodes: nodes, devices: topics.count)
        let state = (directory as NSString).appendingPathComponent("state")

        func isConfig(_ message: MQTTMessage) -> Bool {
            message.topic.hasPrefix("homeassistant/") && message.topic.hasSuffix("/config") && !message.payload.isEmpty
        }

        for (index, enabled) in [true, false, true, false, true].enumerated() {
            let what = "\(index == 0 ? "cold" : "cached"), discovery \(enabled ? "on" : "off")"
            let mark = watcher.inbox.mark
            let body =
                fixture.zwaveSection(stateDirectory: state, refreshAfterSet: false) + "\n" + cec.cecSection
                + "\n[homeassistant]\nenabled = \(enabled)\n"
            let bridge = try BridgeRun.start(
                name: "discovery", brokerPort: broker.port, body: body, directory: directory)
            let statesAt = await ScaleScenario.allStates(
                watcher, topics: topics, from: mark, since: bridge.process.started, timeout: .seconds(240))
            outcome.checks.append(
                .init(
                    name: "\(what): every state published", passed: statesAt != nil,
                    detail: statesAt == nil ? "not all \(topics.count) within 240 s" : ""))
            _ = await fixture.waitForQuiet(.seconds(2), timeout: .seconds(60))
            try await Task.sleep(
                until: max(ContinuousClock.now + .seconds(2), bridge.process.started + ScaleScenario.restAfter),
                clock: .continuous)
            let rest = bridge.process.memory
            if index > 0, let rest { outcome.rest[enabled, default: []].append(rest) }
            if enabled, let statesAt {
                let configs = watcher.inbox.items(from: mark).filter { isConfig($0.item) }
                outcome.configs = Set(configs.map(\.item.topic)).count
                if let last = configs.last {
                    outcome.settle.append(((last.time - bridge.process.started).milliseconds / 1000, statesAt))
                }
            }
            if index == 4 {
                // Home Assistant (re)started: every config again.
                let birth = watcher.inbox.mark
                try await watcher.publish("homeassistant/status", "online")
                let expected = outcome.configs
                let deadline = ContinuousClock.now + .seconds(30)
                var received: [Inbox<MQTTMessage>.Stamped] = []
                while ContinuousClock.now < deadline {
                    received = watcher.inbox.items(from: birth).filter { isConfig($0.item) }
                    if Set(received.map(\.item.topic)).count >= expected { break }
                    try await Task.sleep(for: .milliseconds(20))
                }
                outcome.republished = Set(received.map(\.item.topic)).count
                if let first = received.first, let last = received.last {
                    outcome.republishSeconds = (last.time - first.time).milliseconds / 1000
                }
                outcome.checks.append(
                    .init(
                        name: "every config published again after Home Assistant's birth",
                        passed: outcome.republished >= expected && expected > 0,
                        detail: "\(outcome.republished) of \(expected) within 30 s"))
            }
            log(
                "  10. \(what): at rest \(rest?.summary ?? "n/a"), states after \(statesAt.map(seconds) ?? "timeout")"
                    + (index == 4 ? ", RSS after Home Assistant's birth \(megabytes(bridge.process.rssKB))" : ""))
            await bridge.process.stop(timeout: .seconds(20))
        }
        cec.stop()
        await fixture.stop()
        await watcher.close()
        await broker.stop()
        return outcome
    }
}

extension ThuisBench {
    static func discoveryCost(_ o: DiscoveryCostScenario.Outcome) -> ScenarioResult {
        var result = ScenarioResult(name: "10. Home Assistant discovery cost (\(o.nodes) nodes + CEC)")
        func mean(_ values: [MemoryReading]?) -> MemoryReading? {
            guard let values, !values.isEmpty else { return nil }
            return MemoryReading(
                rssKB: values.map(\.rssKB).reduce(0, +) / values.count,
                pssKB: values.map(\.pssKB).reduce(0, +) / values.count,
                anonymousKB: values.map(\.anonymousKB).reduce(0, +) / values.count)
        }
        let on = mean(o.rest[true])
        let off = mean(o.rest[false])
        func delta(_ figure: (MemoryReading) -> Int) -> Int? {
            on.flatMap { on in off.map { figure(on) - figure($0) } }
        }
        func signed(_ kB: Int?) -> String { kB.map { String(format: "%+.2f MB", Double($0) / 1024) } ?? "n/a" }
        let rss = delta(\.rssKB)
        result.row(
            "RSS at rest, discovery on − off", signed(rss),
            baseline: "off \(megabytes(off?.rssKB)), on \(megabytes(on?.rssKB))",
            comparison: "PSS \(signed(delta(\.pssKB))), anonymous \(signed(delta(\.anonymousKB)))",
            goal: "≤ 1 MB", met: rss.map { $0 <= 1024 })
        result.notes.append(
            "RSS of the cached starts: on \(o.rest[true]?.map { megabytes($0.rssKB) } ?? []), "
                + "off \(o.rest[false]?.map { megabytes($0.rssKB) } ?? [])")
        result.row(
            "republish every config after Home Assistant's birth", o.republishSeconds.map(seconds) ?? "n/a",
            baseline: "\(o.republished) configs, \(o.devices) devices", comparison: "first → last config received",
            goal: "< 1 s", met: o.republishSeconds.map { $0 < 1 })
        result.row(
            "start → last config received", o.settle.map { seconds($0.lastConfig) }.joined(separator: " / "),
            baseline: "start → every state: " + o.settle.map { seconds($0.states) }.joined(separator: " / "),
            comparison: "cold / cached starts with discovery on")
        result.numbers = [
            "rss_delta_kb": Double(rss ?? -1), "pss_delta_kb": Double(delta(\.pssKB) ?? -1),
            "anonymous_delta_kb": Double(delta(\.anonymousKB) ?? -1), "configs": Double(o.configs),
            "republished": Double(o.republished),
            "republish_s": o.republishSeconds ?? -1,
        ]
        if let on { result.numbers.merge(on.numbers("on")) { $1 } }
        if let off { result.numbers.merge(off.numbers("off")) { $1 } }
        for (index, settle) in o.settle.enumerated() {
            result.numbers["start_\(index)_last_config_s"] = settle.lastConfig
            result.numbers["start_\(index)_every_state_s"] = settle.states
        }
        result.checks = o.checks
        return result
    }
}
