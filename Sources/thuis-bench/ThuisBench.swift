import ArgumentParser
import Foundation
import LabSupport
import ZWaveEmulator

/// `thuis-bench`: latency, throughput, memory and start-up of the real `thuis-bridge run` process against a
/// real mosquitto, libopenzwave, libcec and the project's emulators, each next to a baseline measured in the
/// same run (`thuis-bench run`, the default); `thuis-bench report` turns the JSON into the Markdown table of
/// Performance.md.
@main
struct ThuisBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thuis-bench",
        abstract: "Benchmark thuis-bridge against baselines measured in the same run.",
        subcommands: [RunCommand.self, ReportCommand.self], defaultSubcommand: RunCommand.self)
}

/// The benchmark. Prints a table and writes JSON (`--json`). Figures are reported, never judged; the exit status is
/// 1 when a correctness check fails (a lost command, a wrong final level, a state never published, a scenario that
/// did not complete), after the table and the JSON.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run the scenarios (the default).")

    @Option(help: "Write the results as JSON to this file.")
    var json: String?

    @Option(help: "Samples for the Z-Wave latency scenarios (1, 2, 11, 12).")
    var samples = 1000

    @Option(help: "Samples for the CEC scenario (6).")
    var cecSamples = 300

    @Option(help: "Nodes in the scale network (4, 5, 10): 1-\(maximumNodes), Z-Wave's limit beside the controller.")
    var nodes = 50

    /// Z-Wave's node ids are 1-232 and the controller has one: the emulator takes at most 231 nodes.
    static let maximumNodes = 231

    @Option(help: "Emulated radio latency per transaction for the scale scenario, in ms.")
    var scaleLatency = 5

    @Option(help: "Scenarios to run, comma separated (1-12; 7, the soak, only when named).")
    var only = "1,2,3,4,5,6,8,9,10,11,12"

    @Option(help: "Length of the soak (7), in minutes.")
    var soakMinutes = 30.0

    @Option(help: "Seed of the soak's random commands and events (7).")
    var seed: UInt64 = 20_261_122

    @Option(help: "Idle CPU (8): seconds of rest measured.")
    var idleSeconds = 60

    @Option(help: "Idle CPU (8): the rest starts this many seconds after the bridge's start, at the earliest.")
    var idleSettle = 90

    @Option(help: "First /set during start-up (9): bridge starts, each with one /set during its start-up queries.")
    var startupRuns = 10

    @Option(help: "First /set during start-up (9): warm /sets timed after the last start.")
    var warmSets = 50

    @Flag(help: "Keep the run directory (logs, configs, caches).")
    var keep = false

    func run() async throws {
        guard (1...Self.maximumNodes).contains(nodes) else {
            FileHandle.standardError.write(
                Data(
                    ("thuis-bench: --nodes \(nodes) is impossible: a Z-Wave network has node ids 1-232 and the "
                        + "controller takes one, so it holds 1-\(Self.maximumNodes) nodes\n").utf8))
            throw ExitCode(2)
        }
        let selected = Set(only.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) })
        let machine = Machine.current()
        let log: @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        log("thuis-bench on \(machine.summary)")
        let run = try BenchDirectory()
        log("run directory \(run.path)")
        var results: [ScenarioResult] = []
        let started = Date()

        if !selected.isDisjoint(with: [1, 2, 3]) {
            // Scenario 1 runs a third time with OpenZWave as shipped (openzwave_patches = false), shown beside the
            // row with refresh_after_set = false, the default it runs with.
            var setToWire: [Bool: SetToWireScenario.Outcome] = [:]
            var refused: SetToWireScenario.Outcome?
            let sessions = [(true, true), (false, true)] + (selected.contains(1) ? [(false, false)] : [])
            for (refresh, patches) in sessions {
                let what = "refresh_after_set = \(refresh)" + (patches ? "" : ", openzwave_patches = false")
                log("scenarios 1-3 with \(what)")
                let session: DimmerSession
                do {
                    session = try await DimmerSession.start(
                        run: run, refreshAfterSet: refresh, openZWavePatches: patches, log: log)
                } catch {
                    log("  failed: \(error)")
                    results.append(.failed("1-3 (\(what))", error, stage: "could not start"))
                    continue
                }
                do {
                    if selected.contains(1) {
                        log("  1. set → wire, \(samples) samples")
                        let r = try await SetToWireScenario.run(session, samples: samples, log: log)
                        if patches { setToWire[refresh] = r } else { refused = r }
                    }
                    if selected.contains(2), refresh {
                        log("  2. report → MQTT, \(samples) samples")
                        let r = try await ReportToMQTTScenario.run(session, samples: samples, log: log)
                        results.append(ThuisBench.reportToMQTT(r))
                    }
                    if selected.contains(3), patches {
                        log("  3. slider flood")
                        let r = try await SliderFloodScenario.run(session, log: log)
                        results.append(ThuisBench.flood(r, refresh: refresh))
                    }
                } catch {
                    log("  failed: \(error)\n  bridge log tail:\n\(session.bridge.process.outputText.suffix(3000))")
                    results.append(.failed("1-3 (\(what))", error))
                }
                await session.stop()
            }
            for refresh in [true, false] {
                guard let r = setToWire[refresh] else { continue }
                results.append(ThuisBench.setToWire(r, refresh: refresh, refused: refresh ? nil : refused))
            }
        }
        if !selected.isDisjoint(with: [4, 5]) {
            let latency = Duration.milliseconds(scaleLatency)
            log("scenario 4: scale, 2 nodes (default network), radio \(scaleLatency) ms")
            do {
                let small = try await ScaleScenario.run(
                    run: run, network: .defaultNetwork, label: "2", withCEC: selected.contains(5),
                    radioLatency: latency, log: log)
                log("scenario 4/5: scale, \(nodes) nodes, radio \(scaleLatency) ms")
                let large = try await ScaleScenario.run(
                    run: run, network: ZWaveFixture.scaleNetwork(count: nodes),
                    label: "\(nodes)", withCEC: selected.contains(5), radioLatency: latency,
                    log: log)
                if selected.contains(4) { results.append(ThuisBench.scale([small, large], latency: scaleLatency)) }
                if selected.contains(5) {
                    var memory = ThuisBench.memory([small, large])
                    // Scenario 5 alone still needs its cold and cached runs to have published everything.
                    if !selected.contains(4) { memory.checks = small.startChecks + large.startChecks + memory.checks }
                    results.append(memory)
                }
            } catch {
                log("  failed: \(error)")
                results.append(.failed("4-5", error))
            }
        }
        if selected.contains(6) {
            log("scenario 6: CEC, \(cecSamples) samples")
            do {
                let r = try await CECScenario.run(run: run, samples: cecSamples, log: log)
                results.append(ThuisBench.cec(r))
            } catch {
                log("  failed: \(error)")
                results.append(.failed("6", error))
            }
        }

        if selected.contains(7) {
            log("scenario 7: soak, \(soakMinutes) min, seed \(seed)")
            do {
                let r = try await SoakScenario.run(
                    run: run, duration: .milliseconds(Int64(soakMinutes * 60_000)),
                    seed: seed, log: log)
                results.append(ThuisBench.soak(r))
            } catch {
                log("  failed: \(error)")
                results.append(.failed("7", error))
            }
        }

        if selected.contains(8) {
            log("scenario 8: idle, \(idleSeconds) s at rest from \(idleSettle) s after the start")
            let window = Duration.seconds(idleSeconds)
            let readings = await IdleScenario.run(run: run, settle: .seconds(idleSettle), window: window, log: log)
            results.append(ThuisBench.idle(readings, window: window))
        }

        if selected.contains(9) {
            log("scenario 9: first /set during start-up, \(startupRuns) starts, \(warmSets) warm")
            do {
                let r = try await StartupSetScenario.run(run: run, runs: startupRuns, warm: warmSets, log: log)
                log("  again with openzwave_patches = false")
                let refused = try await StartupSetScenario.run(
                    run: run, runs: startupRuns, warm: warmSets, openZWavePatches: false, log: log)
                results.append(ThuisBench.startupSet(r, refused: refused))
            } catch {
                log("  failed: \(error)")
                results.append(.failed("9", error))
            }
        }

        if selected.contains(10) {
            log("scenario 10: Home Assistant discovery cost, \(nodes) nodes + CEC")
            do {
                let r = try await DiscoveryCostScenario.run(
                    run: run, nodes: nodes, radioLatency: .milliseconds(scaleLatency), log: log)
                results.append(ThuisBench.discoveryCost(r))
            } catch {
                log("  failed: \(error)")
                results.append(.failed("10", error))
            }
        }

        if selected.contains(11) {
            log("scenario 11: dashboard, \(samples) samples")
            do {
                results.append(
                    ThuisBench.dashboard(try await DashboardScenario.run(run: run, samples: samples, log: log)))
            } catch {
                log("  failed: \(error)")
                results.append(.failed("11", error))
            }
        }

        if selected.contains(12) {
            log("scenario 12: HomeKit, \(samples) samples")
            do {
                results.append(
                    ThuisBench.homeKit(try await HomeKitScenario.run(run: run, samples: samples, log: log)))
            } catch {
                log("  failed: \(error)")
                results.append(.failed("12", error))
            }
        }

        // In the order of the scenarios' numbers (scenario 1 is made after the sessions that also run 2 and 3).
        results = results.enumerated().sorted { ($0.element.number, $0.offset) < ($1.element.number, $1.offset) }
            .map(\.element)
        let report = BenchReport(
            machine: machine, date: ISO8601DateFormatter().string(from: started),
            durationSeconds: Date().timeIntervalSince(started),
            command: (["thuis-bench"] + CommandLine.arguments.dropFirst()).joined(separator: " "),
            results: results)
        print(report.table)
        // The table (standard output) ends before the log lines below (standard error) when both go to one file.
        fflush(nil)
        if let json {
            try report.write(json: json)
            log("JSON written to \(json)")
        }
        if keep { log("kept \(run.path)") } else { run.remove() }
        let failures = report.correctnessFailures
        if !failures.isEmpty {
            log("correctness checks failed:\n" + failures.map { "- \($0)" }.joined(separator: "\n"))
            throw ExitCode(1)
        }
    }
}
