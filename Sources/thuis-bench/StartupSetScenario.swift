import Foundation
import ZWaveEmulator

/// Scenario 9: the first `/set` during start-up, next to warm ones. The bridge starts (`runs` times, the first
/// with no network cache, the others with it) on the emulated default network at a realistic 30 ms radio
/// transaction; once the dimmer is `online` and the first Meter Get of the start-up queries reaches the stick (the
/// nodes' Dynamic query stage and the bridge's PowerNode reads are under way: one transaction in flight, more
/// queued), a `/set` is published, and timed to its Switch Multilevel Set at the stick. Counted too: the frames the stick received between the `/set` and its Set (the goal: at most the one
/// in flight). Once the start-up traffic of the last run is over, `warm` `/set`s on the same bridge are timed the
/// same way.
enum StartupSetScenario {
    struct Outcome: Sendable {
        /// /set → Set at the stick during start-up, ms, one per run that caught the queries in flight.
        var startup: [Double] = []
        /// From the expected end of the transaction in flight (its Get's arrival + the radio latency, when the
        /// emulated node's report goes out) to the Set at the stick, ms.
        var afterInFlight: [Double] = []
        /// Frames that reached the stick between each of those /sets and its Set.
        var overtaken: [Int] = []
        /// Runs with no Meter Get within 10 s of the dimmer coming online (no sample).
        var missed = 0
        var warm: [Double] = []
        var sent = 0
        /// /sets whose Set never reached the stick (within 10 s).
        var lost = 0
        var radioMilliseconds: Double = 0
    }

    static let dimmer: UInt8 = 2

    static func run(run: BenchDirectory, runs: Int, warm: Int, log: (String) -> Void) async throws -> Outcome {
        let directory = try run.subdirectory("startup-set")
        let broker = try await BenchBroker(directory: run)
        let latency = ZWaveStickEmulator.realisticRadioLatency
        let fixture = try ZWaveFixture(
            network: .defaultNetwork, radioLatency: latency,
            link: (directory as NSString).appendingPathComponent("zwave"))
        let watcher = try await BenchClient(port: broker.port, name: "startup-watcher")
        try await watcher.subscribe("Thuis/#")
        let commander = try await BenchClient(port: broker.port, name: "startup-commander")
        var outcome = Outcome(radioMilliseconds: latency.milliseconds)
        let body = fixture.zwaveSection(
            stateDirectory: (directory as NSString).appendingPathComponent("state"), refreshAfterSet: false)
        let availability = "Thuis/device/bench/d\(dimmer)/availability"
        let setTopic = "Thuis/device/bench/d\(dimmer)/set"
        var level = 0

        /// Publishes a new level and waits for its Set at the stick: (ms, frames before it), nil when lost.
        func timedSet() async throws -> (ms: Double, framesBefore: Int, at: ContinuousClock.Instant)? {
            level = level % 98 + 1
            let target = UInt8(level)
            let frames = fixture.frames.mark
            let start = ContinuousClock.now
            try await commander.publish(setTopic, String(level))
            outcome.sent += 1
            guard
                let set = await fixture.frames.next(
                    from: frames, timeout: .seconds(10),
                    where: {
                        $0.multilevelSetLevel(node: dimmer) == target
                    })
            else {
                outcome.lost += 1
                return nil
            }
            return ((set.time - start).milliseconds, set.index - frames, set.time)
        }

        for index in 0..<runs {
            let mark = watcher.inbox.mark
            let bridge = try BridgeRun.start(name: "startup", brokerPort: broker.port, body: body, directory: directory)
            guard
                let online = await watcher.wait(topic: availability, text: "online", from: mark, timeout: .seconds(60))
            else {
                await bridge.process.stop()
                throw BenchError("the dimmer never came online:\n\(bridge.process.output.suffix(3000))")
            }
            // The first Meter Get at the stick after `online`: the Gets of the nodes' Dynamic query stage and the
            // bridge's own PowerNode reads are under way, one in flight and the rest queued.
            let afterOnline = fixture.frames.items(from: 0).last { $0.time <= online.time }.map { $0.index + 1 } ?? 0
            if let inFlight = await fixture.frames.next(
                from: afterOnline, timeout: .seconds(10), where: { $0.carries(0x32, 0x01) })
            {
                if let set = try await timedSet() {
                    let after = (set.at - (inFlight.time + latency)).milliseconds
                    outcome.startup.append(set.ms)
                    outcome.afterInFlight.append(after)
                    outcome.overtaken.append(set.framesBefore)
                    log(
                        "    run \(index + 1): first /set \(String(format: "%.1f", set.ms)) ms, "
                            + "\(String(format: "%.2f", after)) ms after the transaction in flight, "
                            + "\(set.framesBefore) frames before it")
                }
            } else {
                outcome.missed += 1
                log("    run \(index + 1): no Meter Get within 10 s of the dimmer coming online")
            }
            _ = await fixture.waitForQuiet(.seconds(1), timeout: .seconds(60))
            if index == runs - 1 {
                for _ in 0..<warm {
                    if let set = try await timedSet() { outcome.warm.append(set.ms) }
                    _ = await fixture.waitForQuiet(.milliseconds(200), timeout: .seconds(10))
                }
            }
            await bridge.process.stop(timeout: .seconds(20))
        }
        await commander.close()
        await watcher.close()
        await fixture.stop()
        await broker.stop()
        return outcome
    }
}

extension ThuisBench {
    static func startupSet(_ o: StartupSetScenario.Outcome) -> ScenarioResult {
        let startup = LatencySummary(milliseconds: o.startup)
        let warm = LatencySummary(milliseconds: o.warm)
        var result = ScenarioResult(
            name: "9. first /set during start-up → SEND_DATA at the stick (radio \(Int(o.radioMilliseconds)) ms)")
        let after = LatencySummary(milliseconds: o.afterInFlight)
        result.latencies = ["first_set_during_startup": startup, "after_transaction_in_flight": after, "warm": warm]
        let overtakenMax = o.overtaken.max() ?? 0
        result.numbers = [
            "lost": Double(o.lost), "missed_runs": Double(o.missed), "frames_first_max": Double(overtakenMax),
            "frames_first_total": Double(o.overtaken.reduce(0, +)),
        ]
        result.check("every /set reached the stick", o.lost == 0, "\(o.lost) of \(o.sent) lost")
        result.row(
            "first /set during start-up: p50 / max", "\(ms(startup.p50)) / \(ms(startup.max))",
            baseline: "warm p50 \(ms(warm.p50)), p99 \(ms(warm.p99))",
            comparison: "Python peer 1-1.4 ms (it reports ready only after every query)",
            goal: String(format: "≤ %.0f ms (one transaction + 2 ms)", o.radioMilliseconds + 2),
            met: o.startup.isEmpty ? nil : startup.max <= o.radioMilliseconds + 2)
        result.row(
            "  from the end of the transaction in flight: p50 / max", "\(ms(after.p50)) / \(ms(after.max))",
            comparison: "its Get's arrival + the radio latency → the Set at the stick", goal: "≤ 2 ms",
            met: o.afterInFlight.isEmpty ? nil : after.max <= 2)
        result.row(
            "  frames that went to the stick before the Set", "max \(overtakenMax), total \(o.overtaken.reduce(0, +))",
            comparison: "over \(startup.count) runs (\(o.missed) without start-up queries to catch)",
            goal: "≤ 1 (the one in flight)", met: o.startup.isEmpty ? nil : overtakenMax <= 1)
        result.row(
            "warm /set (after start-up): p50 / p99", "\(ms(warm.p50)) / \(ms(warm.p99))",
            baseline: "\(warm.count) samples")
        return result
    }
}
