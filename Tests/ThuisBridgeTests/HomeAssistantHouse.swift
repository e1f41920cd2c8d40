import BridgeCore
import CECEmulator
import Foundation
import IntegrationSupport
import LabSupport
import Logging
import MQTTDriver
import Synchronization
import TestSupport
import Testing
import ZWaveEmulator

/// Where the tests' Home Assistant comes from: a venv at `.build-ha/venv` in the package root (git-ignored),
/// or `THUIS_HA_VENV`. Without it the suite is skipped, unless `THUIS_REQUIRE_HA=1` (CI), which makes it fail.
enum HomeAssistantInstall {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// The harness (our own Python, run by the venv's python): config dir seeding and the websocket API.
    static let harness = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("HomeAssistant/ha_harness.py").path

    static var venv: String {
        ProcessInfo.processInfo.environment["THUIS_HA_VENV"]
            ?? packageRoot.appendingPathComponent(".build-ha/venv").path
    }
    static var python: String { venv + "/bin/python" }
    static var hass: String { venv + "/bin/hass" }

    static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: hass) && FileManager.default.isExecutableFile(atPath: python)
    }
    static var isRequired: Bool { ProcessInfo.processInfo.environment["THUIS_REQUIRE_HA"] == "1" }

    static var missing: String {
        "no Home Assistant venv at \(venv) (THUIS_HA_VENV overrides the place); install it with: "
            + "PYENV_VERSION=3.13.0 python3.13 -m venv .build-ha/venv && .build-ha/venv/bin/pip install "
            + "homeassistant==2025.4.4 home-assistant-frontend==20250411.0 paho-mqtt==2.1.0 (Development.md, Tests)"
    }
}

/// A real mosquitto, the emulated Z-Wave stick (FGD212 node 2, PowerNode 6 node 3, binary switch node 4, the
/// sleeping MultiSensor 6 node 5, door sensor node 6 and WallMote Quad node 10, woken whenever OpenZWave addresses
/// them, roller shutter node 7, door lock node 8, radiator thermostat node 9), the
/// emulated CEC adapter (TV, audio system, Apple TV at 1.0.0.0), the real `thuis-bridge run` process bridging
/// both, and a real, headless Home Assistant reading the bridge's discovery; a subscriber on `Thuis/#` and
/// `homeassistant/#`. One for the whole suite (Home Assistant takes ~8 s and ~160 MB to start).
final class HomeAssistantHouse: Sendable {
    let broker: MosquittoBroker
    let stick: ZWaveStickEmulator
    let cec: CECAdapterEmulator
    let watcher: MQTTTestClient
    let directory: TemporaryDirectory
    /// devices.toml as the suite starts (dimmer `bedroom/light`), and with the dimmer renamed.
    let config: String
    let renamedConfig: String
    let homeAssistantDirectory: String
    private let processes: Mutex<Processes>
    /// Wakes the sleeping sensor nodes when OpenZWave sends them a frame (as a person pressing their button), until
    /// their interview is complete: then they sleep, as battery nodes do, and OpenZWave's later queries wait for a
    /// wake-up instead of holding its send queue (an awake door sensor leaves a query of a command class it lacks
    /// unanswered, which stalls every other node's commands for OpenZWave's reply timeout).
    private let waker: Task<Void, Never>

    private struct Processes {
        var bridge: ChildProcess
        var homeAssistant: ChildProcess?
        var client: HomeAssistantClient?
        /// How many lines of `homeAssistant`'s output were checked for the MQTT integration's warnings and errors,
        /// and those found in the output of a Home Assistant that stopped, not reported yet.
        var checkedLines = 0
        var unreported: [String] = []
    }

    static let bridgeName = "ha"
    static let dimmer = "bedroom/light"
    static let renamedDimmer = "study/lamp"
    /// The MultiSensor 6 (node 5, in devices.toml) and the door sensor (node 6, not: an unassigned node).
    static let multiSensor = "hall/motion"
    static let doorSensor = "unassigned/node6"
    /// The roller shutter (node 7, in devices.toml): a cover.
    static let shutter = "living/shutter"
    /// The door lock (node 8, in devices.toml; FLiRS): a lock.
    static let doorLock = "hall/door"
    /// The Eurotronic Spirit (node 9, in devices.toml, FLiRS): a thermostat.
    static let radiator = "bedroom/radiator"
    /// The WallMote Quad (node 10, in devices.toml): four scene buttons.
    static let wallmote = "hall/wallmote"
    static let sleepers: Set<UInt8> = [5, 6, 10]

    /// The bridge process (replaced by `restartBridge`).
    var bridge: ChildProcess { processes.withLock { $0.bridge } }
    /// The running Home Assistant's API (replaced when `startHomeAssistant` runs again).
    var homeAssistant: HomeAssistantClient {
        get throws {
            guard let client = processes.withLock({ $0.client }) else {
                throw TestSupportError("Home Assistant is not running")
            }
            return client
        }
    }

    /// Node 2 FGD212 and node 3 PowerNode 6 of the default network, a plain binary switch at node 4 (the one the
    /// exclusion test removes, so the others keep theirs), and the `sensors` network's MultiSensor 6, door sensor
    /// and roller shutter (fully open) as nodes 5, 6 and 7, and its door lock (locked) as node 8.
    static var network: NetworkDescription {
        var network = switchNetwork
        network.nodes += [
            NodeDescription(id: 5, kind: .multisensor6, name: "hall sensor", temperature: 21.5, battery: 90),
            NodeDescription(id: 6, kind: .fgdw002, name: "front door", temperature: 19, battery: 80),
            NodeDescription(id: 7, kind: .fgr223, name: "living room shutter", level: 99, loads: [120]),
            NodeDescription(id: 8, kind: .danalock, name: "front door lock", battery: 50),
            NodeDescription(
                id: 9, kind: .spirit, name: "bedroom radiator", temperature: 19.5, setpoint: 20, battery: 70),
            NodeDescription(id: 10, kind: .wallmoteQuad, name: "hall wallmote", battery: 60),
        ]
        return network
    }

    /// Nodes 2-4 only (no sleeping node).
    static var switchNetwork: NetworkDescription {
        var network = NetworkDescription.defaultNetwork
        network.nodes = network.nodes.filter { $0.kind != .joining }
        network.nodes.append(NodeDescription(id: 4, kind: .binarySwitch, name: "fan", switches: [false]))
        return network
    }

    /// The Z-Wave network's home id as the discovery names it (`thuis_zwave_<home>_...`).
    static var home: String {
        let hex = String(network.homeID, radix: 16)
        return String(repeating: "0", count: max(0, 8 - hex.count)) + hex
    }

    /// The house's devices.toml, with the dimmer (node 2) at `dimmer` (`room/name`): the Z-Wave house's devices,
    /// a binary switch `hall/fan` (node 4) and the CEC TV.
    static func fixture(dimmer: String, brokerPort: Int, directory: TemporaryDirectory) throws -> ConfigFixture {
        let parts = dimmer.split(separator: "/").map(String.init)
        guard parts.count == 2 else { throw TestSupportError("dimmer must be room/name, not \(dimmer)") }
        var zwave = ZWaveHouse.zwave
        guard let index = zwave.devices.firstIndex(where: { $0.node == 2 && $0.instance == nil }) else {
            throw TestSupportError("ZWaveHouse.zwave no longer has node 2")
        }
        zwave.devices[index].room = parts[0]
        zwave.devices[index].name = parts[1]
        zwave.devices.append(.init(node: 4, room: "hall", name: "fan"))
        zwave.devices.append(.init(node: 5, room: "hall", name: "motion"))
        zwave.devices.append(.init(node: 7, room: "living", name: "shutter"))
        zwave.devices.append(.init(node: 8, room: "hall", name: "door"))
        zwave.devices.append(.init(node: 9, room: "bedroom", name: "radiator"))
        zwave.devices.append(.init(node: 10, room: "hall", name: "wallmote"))
        zwave.port = directory.file("zwave")
        zwave.stateDirectory = directory.file("state")
        // Debug: the dimmer tests wait for the bridge's "executed" lines.
        return ConfigFixture(
            name: bridgeName, logLevel: .debug, mqtt: .local(port: brokerPort), zwave: zwave,
            cec: .init(
                port: directory.file("cec"), osdName: "Thuis",
                devices: [CECHouse.tvDevice]))
    }

    private init(broker: MosquittoBroker) async throws {
        self.broker = broker
        directory = try TemporaryDirectory(prefix: "thuis-ha")
        stick = ZWaveStickEmulator(network: Self.network)
        try stick.start(link: directory.file("zwave"))
        // Before the bridge starts: its first frames to the sleepers wake them.
        waker = ZWaveHouse.wake(Self.sleepers, of: stick)
        cec = CECAdapterEmulator(configuration: CECEmulatorConfiguration())
        try cec.start(link: directory.file("cec"))
        config = try directory.write(
            "devices.toml",
            try Self.fixture(dimmer: Self.dimmer, brokerPort: broker.port, directory: directory).text)
        renamedConfig = try directory.write(
            "renamed.toml",
            try Self.fixture(dimmer: Self.renamedDimmer, brokerPort: broker.port, directory: directory).text)
        homeAssistantDirectory = directory.file("homeassistant")
        watcher = try await MQTTTestClient.connect(port: broker.port)
        try await watcher.subscribe("Thuis/#")
        try await watcher.subscribe("homeassistant/#")
        processes = Mutex(Processes(bridge: try ZWaveHouse.startBridge(config: config, directory: directory)))
    }

    /// Starts everything and waits until Home Assistant has each of the bridge's devices.
    static func start() async throws -> HomeAssistantHouse {
        guard HomeAssistantInstall.isInstalled else { throw TestSupportError(HomeAssistantInstall.missing) }
        let broker = try await MosquittoBroker.start()
        let house: HomeAssistantHouse
        do {
            house = try await HomeAssistantHouse(broker: broker)
        } catch {
            await broker.stop()
            throw error
        }
        do {
            try await ChildProcess.run(
                HomeAssistantInstall.python,
                [
                    HomeAssistantInstall.harness, "init", "--dir", house.homeAssistantDirectory, "--mqtt-port",
                    String(broker.port),
                ])
            try await house.startHomeAssistant()
            try await house.waitUntilBridgeReady()
            try await house.waitUntilSleepersAreInterviewed()
            // Every device is there (whether each has all its entities is for the tests to say).
            try await house.homeAssistant.waitForEntities(
                ExpectedEntity.perDevice.map(\.uniqueID), timeout: .seconds(60))
        } catch {
            house.printDiagnostics()
            await house.stop()
            throw error
        }
        return house
    }

    /// Starts `hass` on the config dir (it owns the process), waits for its MQTT birth message and its API.
    func startHomeAssistant() async throws {
        let mark = await self.mark
        let started = ContinuousClock.now
        let hass = try ChildProcess(
            executable: HomeAssistantInstall.hass,
            arguments: ["-c", homeAssistantDirectory, "--skip-pip", "--log-no-color"])
        processes.withLock {
            $0.homeAssistant = hass
            $0.checkedLines = 0
        }
        try await MQTTTestClient.poll(timeout: .seconds(120), "Home Assistant's birth message") {
            if !hass.isRunning { return true }
            return await watcher.received.dropFirst(mark).contains {
                $0.topic == "homeassistant/status" && $0.text == "online"
            }
        }
        if let ended = hass.terminated {
            throw TestSupportError("hass exited (\(ended)) while starting:\n\(hass.outputText.suffix(5_000))")
        }
        print("Home Assistant: birth message \(ContinuousClock.now - started) after start")
        let client = try HomeAssistantClient(directory: homeAssistantDirectory)
        processes.withLock { $0.client = client }
        let config = try await client.request("ws", ["message": .object([("type", "get_config")])])
        guard config["state"] == "RUNNING" else {
            throw TestSupportError("Home Assistant answers, but is not running: \(config.serialized.prefix(500))")
        }
    }

    /// Stops `hass` (SIGTERM: it says `offline` and saves its registries) and its API client.
    func stopHomeAssistant() async {
        let (hass, client) = processes.withLock { ($0.homeAssistant, $0.client) }
        await client?.stop()
        if let hass, await hass.stop(timeout: .seconds(30)) != .exited(0) {
            print("hass did not stop cleanly (\(String(describing: hass.terminated)))")
        }
        let problems = mqttLogProblems()
        processes.withLock {
            $0.unreported += problems
            $0.client = nil
            $0.homeAssistant = nil
        }
    }

    /// Whether a line of Home Assistant's log is a warning or error of its MQTT integration (deprecated discovery
    /// keys included: `cv.deprecated` logs them on the MQTT platform's logger), e.g.
    /// `2025-04-30 10:00:00.000 WARNING (MainThread) [homeassistant.components.mqtt.light.schema_basic] ...`, or of the
    /// sensor platforms, which check an entity's device class, state class and unit against each other.
    static func isMQTTProblem(_ line: String) -> Bool {
        guard line.contains(" WARNING ") || line.contains(" ERROR ") || line.contains(" CRITICAL ") else {
            return false
        }
        return line.contains("[homeassistant.components.mqtt")
            || line.contains("[homeassistant.components.sensor")
            || line.contains("[homeassistant.components.binary_sensor")
            || (line.contains("[homeassistant.helpers.config_validation]") && line.lowercased().contains("mqtt"))
    }

    /// The MQTT integration's warnings and errors Home Assistant logged since the last call (those of a Home
    /// Assistant that stopped meanwhile first).
    func mqttLogProblems() -> [String] {
        processes.withLock { processes in
            var problems = processes.unreported
            processes.unreported = []
            if let hass = processes.homeAssistant {
                let lines = hass.output
                problems += lines.dropFirst(processes.checkedLines).map(\.text).filter(Self.isMQTTProblem)
                processes.checkedLines = lines.count
            }
            return problems
        }
    }

    /// Waits until the bridge is online with its devices available and the TV's state known (the Z-Wave
    /// interview and the CEC open take a while); the dimmer is at `dimmer`.
    func waitUntilBridgeReady(from mark: Int = 0, dimmer: String = dimmer) async throws {
        try await watcher.waitForMessage(
            topic: "Thuis/bridge/\(Self.bridgeName)/state", text: "online", from: mark, timeout: .seconds(30))
        for device in [
            dimmer, "living/receiver", "living/ambilight", "hall/fan", "living/tv", Self.multiSensor, Self.doorSensor,
            Self.shutter, Self.doorLock, Self.radiator,
        ] {
            try await watcher.waitForMessage(
                topic: "Thuis/device/\(device)/availability", text: "online", from: mark, timeout: .seconds(60))
        }
        _ = try await watcher.waitForMessage(topic: "Thuis/device/living/tv", from: mark, timeout: .seconds(30)) {
            $0.text != "unknown"
        }
    }

    /// Waits until the inventory shows the sleeping nodes' interviews complete, then lets them sleep.
    func waitUntilSleepersAreInterviewed() async throws {
        let sleepers = Self.sleepers.map(Int.init)
        _ = try await watcher.waitForMessage(topic: "Thuis/bridge/\(Self.bridgeName)/devices", timeout: .seconds(60)) {
            message in
            let entries = Inventory(message)?.entries ?? []
            return sleepers.allSatisfy { node in
                entries.contains { $0["node"] == .int(node) && $0["interview_stage"] == "Complete" }
            }
        }
        waker.cancel()
    }

    /// Stops the bridge (SIGTERM) and starts it again with the dimmer at `dimmer` (`renamedConfig` for
    /// `renamedDimmer`), then waits until it is ready.
    func restartBridge(dimmer: String) async throws {
        let termination = await bridge.stop(timeout: .seconds(15))
        guard termination == .exited(0) else {
            throw TestSupportError("the bridge did not stop cleanly: \(String(describing: termination))")
        }
        let mark = await self.mark
        let next = try ZWaveHouse.startBridge(
            config: dimmer == Self.renamedDimmer ? renamedConfig : config, directory: directory)
        processes.withLock { $0.bridge = next }
        try await waitUntilBridgeReady(from: mark, dimmer: dimmer)
    }

    var mark: Int { get async { await watcher.received.count } }

    /// The received messages after `mark` on `topic`.
    func messages(on topic: String, from mark: Int) async -> [String] {
        await watcher.received.dropFirst(mark).filter { $0.topic == topic }.map(\.text)
    }

    func printDiagnostics() {
        print("bridge output (last 20 000 characters):\n\(bridge.outputText.suffix(20_000))")
        let (hass, client) = processes.withLock { ($0.homeAssistant, $0.client) }
        if let hass { print("hass output (last 20 000 characters):\n\(hass.outputText.suffix(20_000))") }
        if let client { print("harness output:\n\(client.process.outputText.suffix(5_000))") }
    }

    func stop() async {
        await stopHomeAssistant()
        _ = await bridge.stop(timeout: .seconds(15))
        waker.cancel()
        stick.stop()
        cec.stop()
        await watcher.close()
        await broker.stop()
        directory.remove()
    }

    // MARK: One house for the suite

    /// The house of the running suite (set by `HomeAssistantHouseTrait`).
    @TaskLocal static var current: HomeAssistantHouse?

    /// Runs one test's `body` with the suite's house, printing the processes' output when it throws.
    static func with(_ body: (HomeAssistantHouse) async throws -> Void) async throws {
        guard let house = current else { throw TestSupportError("no Home Assistant house: the suite trait is missing") }
        do {
            try await body(house)
        } catch {
            house.printDiagnostics()
            throw error
        }
        // Home Assistant took the discovery without a complaint (the first test also answers for its start).
        for problem in house.mqttLogProblems() {
            Issue.record("Home Assistant's MQTT integration logged: \(problem)")
        }
    }
}

/// Starts one `HomeAssistantHouse` for the whole suite it is on (holding one end-to-end slot meanwhile) and
/// stops it after the suite's last test.
struct HomeAssistantHouseTrait: SuiteTrait, TestScoping {
    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? self : nil
    }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await EndToEndSlots.shared.withSlot {
            let started = ContinuousClock.now
            let house = try await HomeAssistantHouse.start()
            print("Home Assistant house ready after \(ContinuousClock.now - started)")
            do {
                try await HomeAssistantHouse.$current.withValue(house) { try await function() }
            } catch {
                await house.stop()
                throw error
            }
            await house.stop()
        }
    }
}

extension Trait where Self == HomeAssistantHouseTrait {
    /// One `HomeAssistantHouse` for the suite.
    static var homeAssistantHouse: Self { HomeAssistantHouseTrait() }
}
