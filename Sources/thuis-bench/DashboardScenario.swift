import Foundation
import LabSupport
import ZWaveEmulator

/// Scenario 11: the dashboard. The default network (FGD212 node 2, PowerNode 6 node 3) and a CEC TV behind
/// the real bridge with `[web]` on:
/// - a device report → the state at an MQTT subscriber and at a dashboard's WebSocket, per sample (the bridge hands
///   the state to both at once; the goal: WebSocket p50 within 2 ms of the broker's own delivery);
/// - the bridge's memory at rest without `[web]`, with it, with one dashboard open (goal: RSS ≤ 32 MB) and with 20
///   dashboards connected (their cost is shown, not judged);
/// - `/set` → wire (scenario 1's measurement) with no dashboard and with 20 connected, reading every state.
enum DashboardScenario {
    struct Outcome: Sendable {
        var mqtt: [Double] = []
        var webSocket: [Double] = []
        /// Per sample: WebSocket arrival − MQTT arrival.
        var lead: [Double] = []
        var sent = 0
        var lostMQTT = 0
        var lostWebSocket = 0
        var withoutWeb: MemoryReading?
        var withWeb: MemoryReading?
        var oneDashboard: MemoryReading?
        var withDashboards: MemoryReading?
        var setAlone = SetToWireScenario.Outcome()
        var setWithDashboards = SetToWireScenario.Outcome()
        var dashboards = 0
        /// Dashboards that had not received the last commanded level at the end (dropped or behind).
        var dashboardsBehind = 0
    }

    static let dashboards = 20

    static func run(run: BenchDirectory, samples: Int, log: (String) -> Void) async throws -> Outcome {
        var outcome = Outcome()
        let directory = try run.subdirectory("dashboard")
        let broker = try await MosquittoBroker.bench(directory: run)
        let fixture = try ZWaveFixture(
            network: .defaultNetwork, radioLatency: .zero,
            link: (directory as NSString).appendingPathComponent("zwave"))
        let cec = try CECFixture(link: (directory as NSString).appendingPathComponent("cec"))
        let watcher = try await BenchClient(port: broker.port, name: "watcher")
        try await watcher.subscribe("Thuis/#")
        let commander = try await BenchClient(port: broker.port, name: "commander")
        defer { cec.stop() }
        func abandon() async {
            await commander.close()
            await watcher.close()
            await fixture.stop()
            await broker.stop()
        }
        let body =
            fixture.zwaveSection(
                stateDirectory: (directory as NSString).appendingPathComponent("state"), refreshAfterSet: false)
            + "\n" + cec.cecSection + "\n"

        // RSS at rest without the web server, then with it (in the same run, same house).
        let bridge: BridgeRun
        let port: Int
        do {
            // A cold start first (it writes OpenZWave's network cache), then cached starts, as scenario 5 measures.
            let cold = try await start(body: body, broker: broker, watcher: watcher, fixture: fixture, in: directory)
            await cold.process.stop(timeout: .seconds(20))
            let plain = try await start(body: body, broker: broker, watcher: watcher, fixture: fixture, in: directory)
            outcome.withoutWeb = plain.process.memory
            await plain.process.stop(timeout: .seconds(20))
            log("  without [web]: at rest \(outcome.withoutWeb?.summary ?? "n/a")")
            port = try FreePort.next()
            bridge = try await start(
                body: body + "[web]\nlisten = \"127.0.0.1:\(port)\"\n", broker: broker, watcher: watcher,
                fixture: fixture, in: directory)
        } catch {
            await abandon()
            throw error
        }
        outcome.withWeb = bridge.process.memory
        log("  with [web] on port \(port): at rest \(outcome.withWeb?.summary ?? "n/a")")
        let session = DimmerSession(
            broker: broker, fixture: fixture, bridge: bridge, commander: commander, watcher: watcher,
            refreshAfterSet: false, startup: .zero)
        do {
            // A device report → MQTT and → one dashboard.
            let dashboard = try BenchWebSocket(port: port)
            guard await dashboard.wait(containing: #""type":"snapshot""#, from: 0, timeout: .seconds(10)) != nil else {
                throw BenchError("the dashboard sent no snapshot")
            }
            // At rest with the one dashboard open and its snapshot sent.
            try await Task.sleep(for: .seconds(1))
            outcome.oneDashboard = bridge.process.memory
            log("  one dashboard open: \(outcome.oneDashboard?.summary ?? "n/a")")
            var previous: UInt8 = 0
            for index in 0..<(samples + 20) {
                var level = DimmerSession.level(index * 7)
                if level == previous { level = level % 99 + 1 }
                previous = level
                let mqttMark = watcher.inbox.mark
                let webMark = dashboard.inbox.mark
                let start = ContinuousClock.now
                fixture.stick.injectReport(from: DimmerSession.node, [0x26, 0x03, level])
                outcome.sent += 1
                let state = #"{"type":"state","topic":"\#(DimmerSession.stateTopic)","payload":"\#(level)"}"#
                let web = await dashboard.wait(containing: state, from: webMark, timeout: .seconds(5))
                let mqtt = await watcher.wait(
                    topic: DimmerSession.stateTopic, text: String(level), from: mqttMark, timeout: .seconds(5))
                if web == nil { outcome.lostWebSocket += 1 }
                if mqtt == nil { outcome.lostMQTT += 1 }
                guard let web, let mqtt, index >= 20 else { continue }
                outcome.webSocket.append((web.time - start).milliseconds)
                outcome.mqtt.append((mqtt.time - start).milliseconds)
                outcome.lead.append((web.time - mqtt.time).milliseconds)
            }
            await dashboard.close()
            log("  state → WebSocket: \(outcome.webSocket.count) samples")

            // /set → wire with no dashboard, then with 20 reading every state.
            outcome.setAlone = try await SetToWireScenario.run(session, samples: samples, log: log)
            var open: [BenchWebSocket] = []
            for _ in 0..<Self.dashboards {
                let socket = try BenchWebSocket(port: port)
                if await socket.wait(containing: #""type":"snapshot""#, from: 0, timeout: .seconds(10)) != nil {
                    open.append(socket)
                }
            }
            outcome.dashboards = open.count
            log("  \(open.count) dashboards connected")
            outcome.setWithDashboards = try await SetToWireScenario.run(session, samples: samples, log: log)
            outcome.withDashboards = bridge.process.memory
            let last = DimmerSession.level(samples + 19)
            let lastState = #"{"type":"state","topic":"\#(DimmerSession.stateTopic)","payload":"\#(last)"}"#
            for socket in open where await socket.wait(containing: lastState, from: 0, timeout: .seconds(5)) == nil {
                outcome.dashboardsBehind += 1
            }
            for socket in open { await socket.close() }
        } catch {
            await session.stop()
            throw error
        }
        await session.stop()
        return outcome
    }

    /// Starts the bridge on `body` and waits until the dimmer's and the TV's states are out and the stick is quiet,
    /// and at least `ScaleScenario.restAfter` since its start (at rest, as scenario 5 reads its memory).
    static func start(
        body: String, broker: MosquittoBroker, watcher: BenchClient, fixture: ZWaveFixture, in directory: String
    ) async throws -> BridgeRun {
        let mark = watcher.inbox.mark
        let bridge = try BridgeRun.start(name: "bench", brokerPort: broker.port, body: body, directory: directory)
        for topic in [DimmerSession.stateTopic, "Thuis/device/bench/tv"]
        where await watcher.wait(topic: topic, from: mark, timeout: .seconds(60)) == nil {
            let output = bridge.process.outputText.suffix(4000)
            await bridge.process.stop(timeout: .seconds(10))
            throw BenchError("the bridge never published \(topic):\n\(output)")
        }
        _ = await fixture.waitForQuiet(.seconds(1), timeout: .seconds(60))
        try await Task.sleep(
            until: max(.now + .seconds(2), bridge.process.started + ScaleScenario.restAfter), clock: .continuous)
        return bridge
    }
}

extension ThuisBench {
    static func dashboard(_ r: DashboardScenario.Outcome) -> ScenarioResult {
        let web = LatencySummary(milliseconds: r.webSocket)
        let mqtt = LatencySummary(milliseconds: r.mqtt)
        let lead = LatencySummary(milliseconds: r.lead)
        let alone = LatencySummary(milliseconds: r.setAlone.bridge)
        let crowded = LatencySummary(milliseconds: r.setWithDashboards.bridge)
        var result = ScenarioResult(name: "11. dashboard")
        result.latencies = [
            "report_to_websocket": web, "report_to_mqtt": mqtt, "websocket_minus_mqtt": lead,
            "set_to_wire_no_dashboard": alone, "set_to_wire_20_dashboards": crowded,
        ]
        result.numbers = ["dashboards": Double(r.dashboards)]
        result.check(
            "every report reached MQTT and the dashboard", r.lostMQTT == 0 && r.lostWebSocket == 0,
            "\(r.lostMQTT) lost on MQTT, \(r.lostWebSocket) on the WebSocket, of \(r.sent)")
        result.check(
            "every /set reached the stick", r.setAlone.lost + r.setWithDashboards.lost == 0,
            "\(r.setAlone.lost) lost alone, \(r.setWithDashboards.lost) with the dashboards")
        result.check(
            "\(DashboardScenario.dashboards) dashboards stayed connected and got the last state",
            r.dashboards == DashboardScenario.dashboards && r.dashboardsBehind == 0,
            "\(r.dashboards) connected, \(r.dashboardsBehind) without the last state")
        result.row(
            "report → WebSocket p50", ms(web.p50), baseline: "MQTT \(ms(mqtt.p50))",
            comparison: "WebSocket − MQTT p50 \(ms(lead.p50))", goal: "≤ MQTT + 2 ms", met: web.p50 <= mqtt.p50 + 2)
        result.row(
            "report → WebSocket p99", ms(web.p99), baseline: "MQTT \(ms(mqtt.p99))",
            comparison: "WebSocket − MQTT p99 \(ms(lead.p99))")
        result.memoryRow(
            "memory at rest, 2 nodes + TV, [web] on, one dashboard open", r.oneDashboard, key: "one_dashboard",
            baseline: "[web] on, none open \(megabytes(r.withWeb?.rssKB))", goalMB: 32)
        result.memoryRow("  [web] on, no dashboard", r.withWeb, key: "with_web")
        result.memoryRow("  without [web]", r.withoutWeb, key: "without_web")
        result.memoryRow("  \(r.dashboards) dashboards open", r.withDashboards, key: "dashboards")
        result.row(
            "/set → wire p99, \(r.dashboards) dashboards", ms(crowded.p99), baseline: "none \(ms(alone.p99))",
            comparison: "p50 \(ms(crowded.p50)) vs \(ms(alone.p50))")
        return result
    }
}
