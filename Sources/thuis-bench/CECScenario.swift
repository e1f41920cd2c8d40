import BridgeCore
import CECDriver
import CECEmulator
import Foundation
import Logging

/// Scenario 6: `/set on` for the TV → Image View On (`10:04`) at the emulated adapter; baseline: the same
/// libcec call (`CECDriver.powerOn`, `libcec_power_on_devices`) made directly against a second emulator.
/// Each sample is followed by standby (`10:36`) so the next `on` is a real transition.
enum CECScenario {
    static func run(run: BenchDirectory, samples: Int, log: (String) -> Void) async throws -> (bridge: [Double], direct: [Double], rssKB: Int?, lost: Int) {
        let directory = try run.subdirectory("cec")
        let broker = try await BenchBroker(directory: run)
        let fixture = try CECFixture(link: (directory as NSString).appendingPathComponent("cec-bridge"))
        let watcher = try await BenchClient(port: broker.port, name: "cec-watcher")
        try await watcher.subscribe("Thuis/#")
        let commander = try await BenchClient(port: broker.port, name: "cec-commander")
        let bridge = try BridgeRun.start(name: "cecbench", brokerPort: broker.port, body: fixture.cecSection, directory: directory)
        defer { fixture.stop() }
        guard await watcher.wait(topic: "Thuis/device/bench/tv", from: 0, timeout: .seconds(30)) != nil else {
            await bridge.process.stop()
            throw BenchError("the bridge never published the TV state:\n\(bridge.process.output.suffix(3000))")
        }
        try await Task.sleep(for: .seconds(1))

        let directFixture = try CECFixture(link: (directory as NSString).appendingPathComponent("cec-direct"))
        defer { directFixture.stop() }
        var logger = Logger(label: "bench.cec")
        logger.logLevel = .error
        let driver = CECDriver(configuration: CECDriverConfiguration(port: directFixture.link, osdName: "Direct", deviceType: .recording),
                               logger: logger)
        _ = try await driver.open()

        var viaBridge: [Double] = []
        var direct: [Double] = []
        var lost = 0
        let onFrame: @Sendable (BusFrame) -> Bool = { $0.description == "10:04" }
        let standbyFrame: @Sendable (BusFrame) -> Bool = { $0.description.hasSuffix("0:36") }
        for index in 0..<(samples + 3) {
            // Through the bridge.
            var mark = fixture.emulator.transmittedCount
            var start = ContinuousClock.now
            try await commander.publish("Thuis/device/bench/tv/set", "on")
            if let frame = await fixture.emulator.waitForTransmitted(since: mark, timeout: .seconds(5), where: onFrame) {
                if index >= 3 { viaBridge.append((frame.time - start).milliseconds) }
            } else {
                lost += 1
            }
            try await Task.sleep(for: .milliseconds(100))
            mark = fixture.emulator.transmittedCount
            try await commander.publish("Thuis/device/bench/tv/set", "off")
            _ = await fixture.emulator.waitForTransmitted(since: mark, timeout: .seconds(5), where: standbyFrame)
            try await Task.sleep(for: .milliseconds(100))

            // Directly.
            mark = directFixture.emulator.transmittedCount
            start = ContinuousClock.now
            try await driver.powerOn(.tv)
            if let frame = await directFixture.emulator.waitForTransmitted(since: mark, timeout: .seconds(5), where: onFrame) {
                if index >= 3 { direct.append((frame.time - start).milliseconds) }
            } else {
                lost += 1
            }
            try await Task.sleep(for: .milliseconds(100))
            try await driver.standby(.tv)
            try await Task.sleep(for: .milliseconds(100))
            if index > 0, index % 20 == 0 { log("    \(index) samples") }
        }
        let rss = bridge.process.rssKB
        await driver.close()
        await bridge.process.stop()
        await commander.close()
        await watcher.close()
        await broker.stop()
        return (viaBridge, direct, rss, lost)
    }
}
