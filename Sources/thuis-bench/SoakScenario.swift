import BridgeCore
import CECEmulator
import Foundation
import LabSupport
internal import MQTTDriver
import SystemSupport
import ZWaveEmulator

/// Scenario 7 (not in the default set): a soak of the emulated house. For `duration`, a seeded random mix of
/// MQTT commands (dimmer levels, PowerNode sockets, TV power) and device events (S2 scene clicks, load changes,
/// the AVR's own remote) at a realistic 30 ms radio transaction; the bridge's RSS is sampled all along. At the
/// end, every emulated device must be in the state last commanded (no command lost), every scene click must
/// have reached MQTT, and the retained states must match the devices.
enum SoakScenario {
    struct Outcome: Sendable {
        var seconds: Double
        var seed: UInt64
        var commands = 0
        var deviceEvents = 0
        var scenesPressed = 0
        var scenesSeen = 0
        /// Devices whose final state differs from the last command (emulated device or retained MQTT state).
        var mismatches: [String] = []
        /// (seconds since start, RSS kB)
        var rss: [(Double, Int)] = []
        var bridgeRestarted = false
    }

    static let dimmer: UInt8 = 2
    static let powerNode: UInt8 = 3

    static func run(run: BenchDirectory, duration: Duration, seed: UInt64, log: (String) -> Void) async throws
        -> Outcome
    {
        let directory = try run.subdirectory("soak")
        let broker = try await MosquittoBroker.bench(directory: run)
        let zwave = try ZWaveFixture(
            network: .defaultNetwork, radioLatency: ZWaveStickEmulator.realisticRadioLatency,
            link: (directory as NSString).appendingPathComponent("zwave"))
        let cec = try CECFixture(link: (directory as NSString).appendingPathComponent("cec"))
        let watcher = try await BenchClient(port: broker.port, name: "soak-watcher")
        try await watcher.subscribe("Thuis/#")
        let commander = try await BenchClient(port: broker.port, name: "soak-commander")
        let body =
            zwave.zwaveSection(
                stateDirectory: (directory as NSString).appendingPathComponent("state"),
                refreshAfterSet: false) + "\n" + cec.cecSection
        let bridge = try BridgeRun.start(name: "soak", brokerPort: broker.port, body: body, directory: directory)
        func stopAll() async {
            await bridge.process.stop(timeout: .seconds(10))
            await commander.close()
            await watcher.close()
            await zwave.stop()
            cec.stop()
            await broker.stop()
        }
        let topics = zwave.stateTopics() + ["Thuis/device/bench/tv"]
        for topic in topics where await watcher.wait(topic: topic, from: 0, timeout: .seconds(90)) == nil {
            let output = bridge.process.outputText.suffix(3000)
            await stopAll()
            throw BenchError("the bridge never published \(topic):\n\(output)")
        }
        _ = await zwave.waitForQuiet(.seconds(1), timeout: .seconds(60))
        let pid = bridge.process.pid

        var random = SeededRandom(seed: seed)
        var outcome = Outcome(seconds: duration.milliseconds / 1000, seed: seed)
        var expectedLevel: Int?
        var expectedSockets: [Int: Bool] = [:]
        var expectedTV: Bool?
        let sceneMark = watcher.inbox.mark
        let started = ContinuousClock.now
        let deadline = started + duration
        var nextSample = started
        var nextReport = started + .seconds(60)
        while ContinuousClock.now < deadline {
            if ContinuousClock.now >= nextSample {
                if let kB = ChildProcess.rssKB(pid: pid) {
                    outcome.rss.append(((ContinuousClock.now - started).milliseconds / 1000, kB))
                } else {
                    outcome.bridgeRestarted = true
                }
                nextSample = nextSample + .seconds(10)
            }
            if ContinuousClock.now >= nextReport {
                log(
                    "    \(Int((ContinuousClock.now - started).milliseconds / 60_000)) min: \(outcome.commands) commands, "
                        + "\(outcome.deviceEvents) device events, RSS \(megabytes(outcome.rss.last?.1))")
                nextReport = nextReport + .seconds(60)
            }
            switch random.below(100) {
            case 0..<40:
                let level = random.below(100)
                try await commander.publish("Thuis/device/bench/d\(dimmer)/set", String(level))
                expectedLevel = level
                outcome.commands += 1
            case 40..<70:
                let socket = 1 + random.below(6)
                let on = random.below(2) == 1
                try await commander.publish("Thuis/device/bench/p\(powerNode)_\(socket)/set", on ? "on" : "off")
                expectedSockets[socket] = on
                outcome.commands += 1
            case 70..<78:
                let on = random.below(2) == 1
                try await commander.publish("Thuis/device/bench/tv/set", on ? "on" : "standby")
                expectedTV = on
                outcome.commands += 1
            case 78..<86:
                if zwave.stick.pressButton(node: dimmer, button: .s2, .single) { outcome.scenesPressed += 1 }
                outcome.deviceEvents += 1
            case 86..<96:
                let socket = UInt8(1 + random.below(6))
                _ = zwave.stick.setLoad(node: powerNode, endpoint: socket, watts: Double(random.below(2000)) / 10)
                outcome.deviceEvents += 1
            default:
                cec.emulator.avrRemoteSetVolume(random.below(101))
                outcome.deviceEvents += 1
            }
            try await Task.sleep(for: .milliseconds(20 + random.below(480)))
        }

        // Let the queues drain: the radio quiet for 3 s, then compare.
        _ = await zwave.waitForQuiet(.seconds(3), timeout: .seconds(120))
        try await Task.sleep(for: .seconds(3))
        if let kB = ChildProcess.rssKB(pid: pid) {
            outcome.rss.append(((ContinuousClock.now - started).milliseconds / 1000, kB))
        }
        outcome.scenesSeen =
            watcher.inbox.items(from: sceneMark).filter {
                $0.item.topic == "Thuis/device/bench/d\(dimmer)/scene" && $0.item.text == "26"
            }.count
        func lastState(_ topic: String) -> String? {
            watcher.inbox.items(from: 0).last { $0.item.topic == topic }?.item.text
        }
        if let expectedLevel {
            let device = zwave.stick.level(node: dimmer).map(Int.init)
            if device != expectedLevel {
                outcome.mismatches.append(
                    "d\(dimmer): device \(device.map(String.init) ?? "nil"), commanded \(expectedLevel)")
            }
            let state = lastState("Thuis/device/bench/d\(dimmer)")
            if state != String(expectedLevel) {
                outcome.mismatches.append("d\(dimmer): MQTT \(state ?? "nil"), commanded \(expectedLevel)")
            }
        }
        for (socket, on) in expectedSockets.sorted(by: { $0.key < $1.key }) {
            let device = zwave.stick.switchState(node: powerNode, endpoint: UInt8(socket))
            if device != on {
                outcome.mismatches.append(
                    "p\(powerNode)_\(socket): device \(String(describing: device)), commanded \(on)")
            }
            let state = lastState("Thuis/device/bench/p\(powerNode)_\(socket)")
            if state != (on ? "on" : "off") {
                outcome.mismatches.append("p\(powerNode)_\(socket): MQTT \(state ?? "nil"), commanded \(on)")
            }
        }
        if let expectedTV {
            let device = cec.emulator.state.tvPoweredOn
            if device != expectedTV { outcome.mismatches.append("tv: device on=\(device), commanded on=\(expectedTV)") }
            let state = lastState("Thuis/device/bench/tv")
            if state != (expectedTV ? "on" : "standby") {
                outcome.mismatches.append("tv: MQTT \(state ?? "nil"), commanded on=\(expectedTV)")
            }
        }
        if bridge.process.rssKB == nil { outcome.bridgeRestarted = true }
        await stopAll()
        return outcome
    }
}
