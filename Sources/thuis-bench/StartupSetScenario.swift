import Foundation
import LabSupport
import ZWaveEmulator

/// Scenario 9: the first `/set` during start-up, next to warm ones. The bridge starts (`runs` times, the first
/// with no network cache, the others with it) on the emulated default network at a realistic 30 ms radio
/// transaction; once the dimmer is `online` and the first Meter Get of the start-up queries reaches the stick (the
/// nodes' Dynamic query stage and the bridge's PowerNode reads are under way: one transaction in flight, more
/// queued), a `/set` is published, and timed to its Switch Multilevel Set at the stick. Counted too: the frames the stick received between the `/set` and its Set (the goal: at most the one
/// in flight). Once the start-up traffic of the last run is over, `warm` `/set`s on the same bridge are timed the
/// same way. The bench runs it twice: with the bridge's OpenZWave patches, and with `openzwave_patches = false`.
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

    static func run(
        run: BenchDirectory, runs: Int, warm: Int, openZWavePatches: Bool = true, log: (String) -> Void
    ) async throws -> Outcome {
        let directory = try run.subdirectory("startup-set" + (openZWavePatches ? "" : "-patches-off"))
        let broker = try await MosquittoBroker.bench(directory: run)
        let latency = ZWaveStickEmulator.realisticRadioLatency
        let fixture = try ZWaveFixture(
            network: .defaultNetwork, radioLatency: latency,
            link: (directory as NSString).appendingPathComponent("zwave"))
        let watcher = try await BenchClient(port: broker.port, name: "startup-watcher")
        try await watcher.subscribe("Thuis/#")
        let commander = try await BenchClient(port: broker.port, name: "startup-commander")
        var outcome = Outcome(radioMilliseconds: latency.milliseconds)
        let body = fixture.zwaveSection(
            stateDirectory: (directory as NSString).appendingPathComponent("state"), refreshAfterSet: false,
            openZWavePatches: openZWavePatches)
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
                await bridge.process.stop(timeout: .seconds(10))
                throw BenchError("the dimmer never came online:\n\(bridge.process.outputText.suffix(3000))")
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
    /// The first `/set` during start-up with the patches (`o`) and with OpenZWave as shipped (`refused`), each
    /// judged against the transaction in flight + 2 ms.
    static func startupSet(_ o: StartupSetScenario.Outcome, refused: StartupSetScenario.Outcome?) -> ScenarioResult {
        var result = ScenarioResult(
            name: "9. first /set during start-up → SEND_DATA at the stick (radio \(Int(o.radioMilliseconds)) ms)")
        for (outcome, key, label) in [(o, "", ""), (refused, "patches_off_", "patches off: ")] {
            guard let outcome else { continue }
            let startup = LatencySummary(milliseconds: outcome.startup)
            let after = LatencySummary(milliseconds: outcome.afterInFlight)
            let warm = LatencySummary(milliseconds: outcome.warm)
            result.latencies["\(key)first_set_during_startup"] = startup
            result.latencies["\(key)after_transaction_in_flight"] = after
            result.latencies["\(key)warm"] = warm
            let overtakenMax = outcome.overtaken.max() ?? 0
            result.numbers["\(key)lost"] = Double(outcome.lost)
            result.numbers["\(key)missed_runs"] = Double(outcome.missed)
            result.numbers["\(key)frames_first_max"] = Double(overtakenMax)
            result.check(
                "\(label)every /set reached the stick", outcome.lost == 0, "\(outcome.lost) of \(outcome.sent) lost")
            let none = outcome.startup.isEmpty
            result.row(
                "\(label)first /set during start-up: p50 / max", "\(ms(startup.p50)) / \(ms(startup.max))",
                baseline: "warm p50 \(ms(warm.p50)), p99 \(ms(warm.p99)) (\(warm.count))",
                comparison: "\(startup.count) starts (\(outcome.missed) without start-up queries to catch)",
                goal: String(format: "≤ %.0f ms (transaction in flight + 2 ms)", outcome.radioMilliseconds + 2),
                met: none ? nil : startup.max <= outcome.radioMilliseconds + 2)
            result.row(
                "  after the transaction in flight: p50 / max", "\(ms(after.p50)) / \(ms(after.max))",
                baseline: "frames before the Set: max \(overtakenMax)",
                comparison: "from its Get's arrival + the radio latency", goal: "≤ 2 ms",
                met: none ? nil : after.max <= 2)
        }
        return result
    }
}
