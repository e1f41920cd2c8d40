import BridgeCore
import CECDriver
import CECEmulator
import Foundation
import LabSupport
import Logging

/// Scenario 6: `/set on` for the TV → Image View On (`10:04`) at the emulated adapter; baseline: the same
/// libcec call (`LibCEC.powerOn`, `libcec_power_on_devices`) made directly against a second emulator.
/// Each sample is followed by standby (`10:36`) so the next `on` is a real transition. libcec's adapter thread
/// reads the port 5 bytes at a time with a 50 ms timeout, so single samples scatter over 0-50 ms on both
/// sides; the bridge's overhead is a shift of the whole distribution, read at its floor (p1) where that
/// scatter is smallest.
enum CECScenario {
    /// The samples: `/set on` → Image View On through the bridge and directly; `/set on` → the state `on`
    /// published (the bridge asks the TV for its power after the command, so an answer lost to libcec shows
    /// here, as a wait of a retry or more); states that never came within 5 s.
    struct Samples {
        var bridge: [Double] = []
        var direct: [Double] = []
        var state: [Double] = []
        var stateTimeouts = 0
        /// The CEC-only bridge's memory after the samples.
        var memory: MemoryReading?
        /// `/set on` published to the bridge, warm-up included.
        var sent = 0
        /// `/set on` whose Image View On never reached the bus through the bridge (within 5 s).
        var lost = 0
        /// Image View On never seen after the direct libcec call (the baseline's own loss).
        var directLost = 0
    }

    static func run(run: BenchDirectory, samples: Int, log: (String) -> Void) async throws -> Samples {
        let directory = try run.subdirectory("cec")
        let broker = try await MosquittoBroker.bench(directory: run)
        let fixture = try CECFixture(link: (directory as NSString).appendingPathComponent("cec-bridge"))
        let watcher = try await BenchClient(port: broker.port, name: "cec-watcher")
        try await watcher.subscribe("Thuis/#")
        let commander = try await BenchClient(port: broker.port, name: "cec-commander")
        let bridge = try BridgeRun.start(
            name: "cecbench", brokerPort: broker.port, body: fixture.cecSection, directory: directory)
        defer { fixture.stop() }
        guard await watcher.wait(topic: "Thuis/device/bench/tv", from: 0, timeout: .seconds(30)) != nil else {
            await bridge.process.stop(timeout: .seconds(10))
            throw BenchError("the bridge never published the TV state:\n\(bridge.process.outputText.suffix(3000))")
        }
        try await Task.sleep(for: .seconds(1))

        let directFixture = try CECFixture(link: (directory as NSString).appendingPathComponent("cec-direct"))
        defer { directFixture.stop() }
        var logger = Logger(label: "bench.cec")
        logger.logLevel = .error
        let driver = LibCEC(
            configuration: CECDriverConfiguration(port: directFixture.link, osdName: "Direct", deviceType: .recording),
            logger: logger)
        _ = try await driver.open()

        var result = Samples()
        let onFrame: @Sendable (BusFrame) -> Bool = { $0.description == "10:04" }
        let standbyFrame: @Sendable (BusFrame) -> Bool = { $0.description.hasSuffix("0:36") }
        // Each command starts on an idle bus after a random pause: libcec's reader waits for the port in 50 ms
        // windows that start again with each frame on the bus, so a fixed pause would give every sample the same
        // place in the window. The pause spreads over exactly two windows (60-159 ms), so the place is uniform on
        // both sides whatever traffic ended before it, and the two medians and means are comparable too (a 60 ms
        // spread drew one 10 ms part of the window twice as often, which part depending on that traffic).
        var generator = SystemRandomNumberGenerator()
        func pause() async throws {
            try await Task.sleep(for: .milliseconds(Int.random(in: 60..<160, using: &generator)))
        }
        let tv = "Thuis/device/bench/tv"
        func throughBridge(record: Bool) async throws {
            try await pause()
            var mark = fixture.emulator.transmittedCount
            var published = watcher.inbox.mark
            let start = ContinuousClock.now
            try await commander.publish("\(tv)/set", "on")
            result.sent += 1
            if let frame = await fixture.emulator.waitForTransmitted(since: mark, timeout: .seconds(5), where: onFrame)
            {
                let milliseconds = (frame.time - start).milliseconds
                if record { result.bridge.append(milliseconds) }
                if milliseconds > 100 { log("    a sample through the bridge took \(Int(milliseconds)) ms") }
            } else {
                result.lost += 1
            }
            // The bridge asks the TV for its power after each command; the state follows the answer.
            if await watcher.wait(topic: tv, text: "on", from: published, timeout: .seconds(5)) != nil {
                if record { result.state.append((ContinuousClock.now - start).milliseconds) }
            } else {
                result.stateTimeouts += 1  // warm-up included: a lost state is a lost state
            }
            try await pause()
            mark = fixture.emulator.transmittedCount
            published = watcher.inbox.mark
            try await commander.publish("\(tv)/set", "off")
            _ = await fixture.emulator.waitForTransmitted(since: mark, timeout: .seconds(5), where: standbyFrame)
            _ = await watcher.wait(topic: tv, text: "standby", from: published, timeout: .seconds(5))
        }
        func directly(record: Bool) async throws {
            try await pause()
            let mark = directFixture.emulator.transmittedCount
            let start = ContinuousClock.now
            try await driver.powerOn(.tv)
            if let frame = await directFixture.emulator.waitForTransmitted(
                since: mark, timeout: .seconds(5), where: onFrame)
            {
                if record { result.direct.append((frame.time - start).milliseconds) }
            } else {
                result.directLost += 1
            }
            try await pause()
            try await driver.standby(.tv)
        }
        // Three warm-up rounds; then the order alternates, so neither side always follows the other.
        for index in 0..<(samples + 3) {
            let record = index >= 3
            if index % 2 == 0 {
                try await throughBridge(record: record)
                try await directly(record: record)
            } else {
                try await directly(record: record)
                try await throughBridge(record: record)
            }
            if index > 0, index % 50 == 0 { log("    \(index) samples") }
        }
        result.memory = bridge.process.memory
        await driver.close()
        await bridge.process.stop(timeout: .seconds(10))
        await commander.close()
        await watcher.close()
        await broker.stop()
        return result
    }
}
