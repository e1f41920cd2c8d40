import Foundation
import IntegrationSupport
import LabSupport
import TestSupport
import Testing
import ZWaveEmulator

extension EmulatorSerialSuite {
    /// the real libopenzwave (through the Debian `MinOZW` sample) interviews the emulated
    /// network completely, cold and from its cache. MinOZW is a separate process, so these tests do not touch
    /// the process-wide OpenZWave Manager.
    @Suite struct MinOZWTests {
        @Test func coldAndCachedStartsReachAllNodesQueried() async throws {
            try MinOZWRunner.requireInstalled()
            let dir = try TemporaryDirectory(prefix: "zwe")
            let emulator = ZWaveStickEmulator(
                network: .defaultNetwork, radioLatency: ZWaveStickEmulator.realisticRadioLatency)
            try emulator.start(link: dir.file("zwave"))
            defer { emulator.stop() }

            let cold = try await MinOZWRunner.run(device: dir.file("zwave"), in: dir.path)
            let coldFrames = emulator.hostFrameCount
            #expect(!cold.timedOut)
            #expect(cold.exitCode == 0)
            #expect(cold.reachedAllNodesQueried, "MinOZW output: \(cold.output.suffix(2000))")
            let cache = try #require(MinOZWRunner.cache(in: dir.path), "no ozwcache_*.xml written")
            #expect(cache.contains("FGD212 Dimmer 2"))
            #expect(cache.contains("FIBARO System"))
            #expect(cache.contains("PowerNode 6 port"))
            #expect(cache.contains("GreenWave Reality Inc"))
            #expect(!cold.output.contains("Dropping command"), "a transaction was not closed")

            let cached = try await MinOZWRunner.run(device: dir.file("zwave"), in: dir.path)
            let cachedFrames = emulator.hostFrameCount - coldFrames
            #expect(!cached.timedOut)
            #expect(cached.exitCode == 0)
            #expect(cached.reachedAllNodesQueried)
            #expect(cachedFrames < coldFrames, "the cached start should need fewer messages")
            #expect(!cached.output.contains("Dropping command"))
            print(
                "MinOZW at 30 ms radio latency: cold \(cold.seconds) s / \(coldFrames) host frames; cached \(cached.seconds) s / \(cachedFrames) host frames"
            )
        }

        @Test func theHouseNetworkIsInterviewedCompletely() async throws {
            try MinOZWRunner.requireInstalled()
            let dir = try TemporaryDirectory(prefix: "zwe")
            let emulator = ZWaveStickEmulator(network: .house)
            try emulator.start(link: dir.file("zwave"))
            defer { emulator.stop() }
            let run = try await MinOZWRunner.run(device: dir.file("zwave"), in: dir.path)
            #expect(run.reachedAllNodesQueried)
            #expect(!run.output.contains("Dropping command"))
            let cache = try #require(MinOZWRunner.cache(in: dir.path))
            #expect(cache.components(separatedBy: "FGD212 Dimmer 2").count - 1 == 6)
            #expect(cache.contains("AN157 Plug-in Appliance Module"))
        }

        @Test func theCLIEmulatorServesMinOZW() async throws {
            try MinOZWRunner.requireInstalled()
            let binary = try BuiltProduct.executable(named: "thuis-lab").path
            let dir = try TemporaryDirectory(prefix: "zwe")
            let link = dir.file("zwave")
            let cli = try ChildProcess(
                executable: binary,
                arguments: ["emulate", "zwave", "--link", link, "--network", "default", "--latency", "10"])
            defer { cli.kill() }

            let deadline = Date().addingTimeInterval(10)
            while !FileManager.default.fileExists(atPath: link), Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            try #require(FileManager.default.fileExists(atPath: link), "the emulator did not create \(link)")
            let run = try await MinOZWRunner.run(device: link, in: dir.path)
            #expect(run.reachedAllNodesQueried, "MinOZW output: \(run.output.suffix(2000))")

            // The control channel: a load change is accepted.
            try "load 3 4 99.5\n".write(toFile: link + ".ctl", atomically: false, encoding: .utf8)
            let accepted = await cli.waitForLine(timeout: .seconds(10)) {
                $0.text.contains("control: load 3 4 99.5 -> ok")
            }
            #expect(accepted != nil, "\(cli.outputText.suffix(2000))")

            cli.signal(SIGINT)
            let termination = await cli.waitForExit(timeout: .seconds(5))
            #expect(
                termination == .exited(0),
                "the emulator did not stop cleanly on SIGINT: \(String(describing: termination))")
            #expect(!FileManager.default.fileExists(atPath: link), "the link was not removed")
        }
    }
}
