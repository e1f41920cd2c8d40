import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import Synchronization
import TestSupport
import ZWaveEmulator

/// A real mosquitto, the emulated Z-Wave stick (FGD212 node 2, PowerNode 6 node 3, a joining node 10) and
/// the real `thuis-bridge run` process (real libopenzwave), plus a subscriber on everything under `Thuis/`.
final class ZWaveHouse: Sendable {
    let broker: MosquittoBroker
    let stick: ZWaveStickEmulator
    let watcher: MQTTTestClient
    let directory: TemporaryDirectory
    let config: String
    let bridgeName: String
    private let bridgeBox: Box
    /// Wakes the sleeping nodes OpenZWave tries to reach (nil: none to wake).
    private let waker: Task<Void, Never>?

    /// The bridge process (replaced by `restartBridge`).
    var bridge: ChildProcess { bridgeBox.get() }

    private final class Box: Sendable {
        let process: Mutex<ChildProcess>
        init(_ first: ChildProcess) { process = Mutex(first) }
        func get() -> ChildProcess { process.withLock { $0 } }
        func set(_ p: ChildProcess) { process.withLock { $0 = p } }
    }

    /// The mapped part of the network: the FGD212 (scene activation on, power reports at 20 %), three
    /// PowerNode sockets and the FGD212's S2 single click as a scene.
    static let zwave = ConfigFixture.ZWave(
        devices: [
            .init(node: 2, room: "bedroom", name: "light", config: [28: 1, 50: 20]),
            .init(node: 3, instance: 1, room: "living", name: "receiver"),
            .init(node: 3, instance: 3, room: "living", name: "subwoofer"),
            .init(node: 3, instance: 4, room: "living", name: "ambilight"),
        ],
        scenes: [.init(node: 2, scene: 26, topic: "Thuis/scene/homeTheater", payload: "on")])

    /// The emulated network: the default one, where one second is ten emulated minutes (so kWh visibly accumulate).
    static var network: NetworkDescription {
        var network = NetworkDescription.defaultNetwork
        network.timeScale = 600
        return network
    }

    init(
        name: String, radioLatency: Duration = ZWaveStickEmulator.defaultRadioLatency,
        network: NetworkDescription = ZWaveHouse.network, zwave mapped: ConfigFixture.ZWave = ZWaveHouse.zwave,
        watching filters: [String] = ["Thuis/#"], appending lines: [String] = [], waking sleepers: Set<UInt8> = []
    ) async throws {
        bridgeName = name
        broker = try await MosquittoBroker.start()
        directory = try TemporaryDirectory(prefix: "thuis-zwave")
        stick = ZWaveStickEmulator(network: network, radioLatency: radioLatency)
        try stick.start(link: directory.file("zwave"))
        var zwave = mapped
        zwave.port = directory.file("zwave")
        zwave.stateDirectory = directory.file("state")
        var fixture = ConfigFixture(name: name, mqtt: .local(port: broker.port), zwave: zwave)
        fixture.appendedLines = lines
        config = try directory.write("devices.toml", fixture.text)
        watcher = try await MQTTTestClient.connect(port: broker.port)
        for filter in filters { try await watcher.subscribe(filter) }
        waker = sleepers.isEmpty ? nil : Self.wake(sleepers, of: stick)
        bridgeBox = Box(try Self.startBridge(config: config, directory: directory))
    }

    /// Wakes each of `sleepers` whenever OpenZWave sends it a frame while it sleeps (from before the bridge starts).
    static func wake(_ sleepers: Set<UInt8>, of stick: ZWaveStickEmulator) -> Task<Void, Never> {
        let frames = stick.hostFrameStream()
        return Task { _ = await stick.wake(sleepers, whenAddressedIn: frames) }
    }

    static func startBridge(config: String, directory: TemporaryDirectory) throws -> ChildProcess {
        try ChildProcess(
            executable: try BuiltProduct.executable(named: "thuis-bridge").path,
            arguments: ["run", "--config", config], workingDirectory: directory.path)
    }

    /// Stops the bridge with SIGTERM (it writes the network cache).
    func stopBridge() async -> ChildProcess.Termination? {
        await bridge.stop(timeout: .seconds(15))
    }

    /// Stops waking the sleeping nodes: from now on they sleep whatever OpenZWave sends them.
    func stopWaking() { waker?.cancel() }

    /// Starts a new bridge process (after `stopBridge`).
    func startBridge() throws {
        bridgeBox.set(try Self.startBridge(config: config, directory: directory))
    }

    func topic(_ device: String, _ suffix: String = "") -> String { "Thuis/device/\(device)\(suffix)" }

    /// Waits for `text` on a device topic, among messages after `from`.
    @discardableResult
    func waitFor(
        _ device: String, _ suffix: String = "", _ text: String, from: Int = 0,
        timeout: Duration = .seconds(30)
    ) async throws -> MQTTMessageText {
        let message = try await watcher.waitForMessage(
            topic: topic(device, suffix), text: text, from: from, timeout: timeout)
        return MQTTMessageText(text: message.text, retained: message.retained)
    }

    /// Waits until the latest message on a device topic, among messages after `from`, is `text`.
    func waitForLatest(
        _ device: String, _ suffix: String = "", _ text: String, from: Int = 0, timeout: Duration = .seconds(30)
    ) async throws {
        let topic = topic(device, suffix)
        try await eventually(
            "\(text) as the latest message on \(topic)", within: timeout,
            state: { "seen: \(await self.watcher.received.filter { $0.topic == topic }.map(\.text))" }
        ) {
            await watcher.received.dropFirst(from).last { $0.topic == topic }?.text == text
        }
    }

    func set(_ device: String, _ payload: String, suffix: String = "/set") async throws {
        try await watcher.publish(topic: topic(device, suffix), text: payload)
    }

    var mark: Int { get async { await watcher.received.count } }

    /// The bridge events after `from`, decoded.
    func events(from: Int = 0) async -> [JSONMessage] {
        await watcher.receivedJSON(on: "Thuis/bridge/\(bridgeName)/event", from: from)
    }

    func stop() async {
        _ = await bridge.stop(timeout: .seconds(15))
        waker?.cancel()
        stick.stop()
        await watcher.close()
        await broker.stop()
    }

    /// Runs `body` with a started house, printing the bridge's output when it fails, stopping everything after.
    static func with(
        name: String, radioLatency: Duration = ZWaveStickEmulator.defaultRadioLatency,
        network: NetworkDescription = ZWaveHouse.network, zwave: ConfigFixture.ZWave = ZWaveHouse.zwave,
        watching filters: [String] = ["Thuis/#"], appending lines: [String] = [], waking sleepers: Set<UInt8> = [],
        _ body: (ZWaveHouse) async throws -> Void
    ) async throws {
        let house = try await ZWaveHouse(
            name: name, radioLatency: radioLatency, network: network, zwave: zwave, watching: filters,
            appending: lines, waking: sleepers)
        do {
            try await body(house)
        } catch {
            await house.stop()
            print("bridge output:\n\(house.bridge.outputText.suffix(20_000))")
            throw error
        }
        await house.stop()
    }
}

/// A received message's text and retain flag.
struct MQTTMessageText: Sendable {
    let text: String
    let retained: Bool
}
