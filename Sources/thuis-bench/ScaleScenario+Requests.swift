import Foundation
import ZWaveEmulator

/// What scenario 4 measures on the cached bridge at rest: whole-network requests, and `/set` → wire with and without
/// meter load.
extension ScaleScenario {
    /// `/set`s timed in each phase of `setsUnderMeterLoad`.
    static let meterLoadSamples = 50

    /// Times a request for every node (`neighbors`, `network_stats`): published → response received, nil without an
    /// answer within 30 s.
    static func requestAnswer(_ verb: String, _ bridge: BridgeRun, _ watcher: BenchClient) async -> Double? {
        let mark = watcher.inbox.mark
        let sent = ContinuousClock.now
        do {
            try await watcher.publish("Thuis/bridge/\(bridge.name)/request/\(verb)", #"{"transaction":"bench"}"#)
        } catch {
            return nil
        }
        guard
            let answer = await watcher.wait(
                topic: "Thuis/bridge/\(bridge.name)/response/\(verb)", from: mark, timeout: .seconds(30))
        else { return nil }
        return sent.duration(to: answer.time).milliseconds / 1000
    }

    /// `/set` → the Switch Multilevel Set's SEND_DATA at the stick for the network's first dimmer, `meterLoadSamples`
    /// at rest, then as many while every node reports its power once a minute (a Meter report injected from each
    /// node in turn, spread over the minute). Each command waits for its state and a quiet radio before the next.
    static func setsUnderMeterLoad(
        fixture: ZWaveFixture, watcher: BenchClient, log: (String) -> Void
    ) async -> (rest: [Double], load: [Double]) {
        guard let dimmer = fixture.network.nodes.first(where: { $0.kind == .fgd212 })?.id else { return ([], []) }
        let metered = fixture.network.nodes.filter { $0.kind == .fgd212 || $0.kind == .powernode6 }.map(\.id)
        let topic = "Thuis/device/bench/d\(dimmer)"

        func sets(_ offset: Int) async -> [Double] {
            var times: [Double] = []
            for index in 0..<meterLoadSamples {
                let level = UInt8((offset + index) % 98 + 1)
                let frameMark = fixture.frames.mark
                let stateMark = watcher.inbox.mark
                let start = ContinuousClock.now
                guard (try? await watcher.publish("\(topic)/set", String(level))) != nil else { continue }
                let frame = await fixture.frames.next(from: frameMark, timeout: .seconds(5)) {
                    $0.multilevelSetLevel(node: dimmer) == level
                }
                guard let frame else { continue }
                times.append((frame.time - start).milliseconds)
                _ = await watcher.wait(topic: topic, text: String(level), from: stateMark, timeout: .seconds(5))
                _ = await fixture.waitForQuiet(.milliseconds(3), timeout: .seconds(2))
            }
            return times
        }

        let rest = await sets(0)
        let stick = fixture.stick
        let spacing = Duration.seconds(60) / max(metered.count, 1)
        let load = Task {
            var round = 0
            while !Task.isCancelled {
                for node in metered where !Task.isCancelled {
                    stick.injectReport(from: node, MeterReading.report(Double(10 + round % 50), scale: .watts))
                    try? await Task.sleep(for: spacing)
                }
                round += 1
            }
        }
        let loaded = await sets(meterLoadSamples)
        load.cancel()
        log(
            "  /set → wire p50 at rest \(LatencySummary(milliseconds: rest).p50) ms, under meter load "
                + "\(LatencySummary(milliseconds: loaded).p50) ms (\(metered.count) nodes reporting once a minute)")
        return (rest, loaded)
    }
}

extension ThuisBench {
    /// Scenario 4's rows of the cached bridge at rest: `neighbors` and `network_stats` for every node, the network and
    /// map pages in Chromium, and `/set` → wire p50 under meter load against the same at rest.
    static func meterLoadRows(_ o: ScaleScenario.Outcome, into result: inout ScenarioResult) {
        for (verb, answered) in [("neighbors", o.neighbors), ("network_stats", o.networkStats)] {
            result.row(
                "\(o.nodes) nodes, `\(verb)` for every node answered",
                answered.map { String(format: "%.0f ms", $0 * 1000) } ?? "no answer", goal: "≤ 1 s",
                met: answered.map { $0 <= 1 })
            result.numbers["\(o.nodes)_\(verb)_s"] = answered ?? -1
        }
        if let pages = o.pages { pageRows(o.nodes, pages, into: &result) }
        guard !o.setAtRest.isEmpty, !o.setUnderMeterLoad.isEmpty else { return }
        let rest = LatencySummary(milliseconds: o.setAtRest)
        let load = LatencySummary(milliseconds: o.setUnderMeterLoad)
        result.row(
            "\(o.nodes) nodes, /set → wire p50 while every node reports power once a minute", ms(load.p50),
            baseline: "at rest \(ms(rest.p50))", comparison: String(format: "%+.2f ms", load.p50 - rest.p50),
            goal: "≤ at rest + 0.2 ms", met: load.p50 - rest.p50 <= 0.2)
        result.numbers["\(o.nodes)_set_p50_rest_ms"] = rest.p50
        result.numbers["\(o.nodes)_set_p50_meter_load_ms"] = load.p50
    }

    /// The network and map pages: the median of three loads (navigation → every node shown and painted) against
    /// the goal, the first load (assets fetched) beside it.
    static func pageRows(_ nodes: Int, _ pages: PageRender.Outcome, into result: inout ScenarioResult) {
        if let problem = pages.problem {
            result.notes.append("\(nodes) nodes, dashboard pages in Chromium: \(problem)")
        }
        if PageRender.isInstalled {
            result.check(
                "\(nodes) nodes: the network and map pages show every node in Chromium",
                !pages.network.isEmpty && !pages.map.isEmpty, pages.problem ?? "")
        }
        for (page, loads) in [("network", pages.network), ("map", pages.map)] where !loads.isEmpty {
            let median = LatencySummary(milliseconds: loads).p50
            let drawing =
                page == "map" && !pages.mapDraw.isEmpty
                ? String(format: ", drawing %.0f ms", LatencySummary(milliseconds: pages.mapDraw).p50) : ""
            result.row(
                "\(nodes) nodes, dashboard \(page) page in headless Chromium: every node shown", ms(median),
                comparison: String(format: "first load %.0f ms", loads[0]) + drawing, goal: "≤ 1 s",
                met: median <= 1000)
            result.numbers["\(nodes)_\(page)_page_ms"] = median
        }
    }
}
