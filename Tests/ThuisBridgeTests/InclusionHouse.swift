import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import ZWaveEmulator

/// A real mosquitto, the emulated Z-Wave stick (FGD212 node 2, optionally a node 10 that joins by itself),
/// the real `thuis-bridge run` process and a subscriber on everything under `Thuis/`; runs the CLI as a
/// real process against them.
final class InclusionHouse: Sendable {
    let broker: MosquittoBroker
    let stick: ZWaveStickEmulator
    let watcher: MQTTTestClient
    let directory: TemporaryDirectory
    let config: String
    let bridgeName: String
    let bridge: ChildProcess

    /// Node 2 an FGD212 (parameter 28 off), node 10 a binary switch that joins (and leaves) `joinAfter`
    /// seconds after inclusion (exclusion) starts, or no joining node when nil.
    static func network(
        joinAfter: Double?, joinsAs: NodeKind = .binarySwitch, extraNodes: [NodeDescription] = [],
        txStatusReport: Bool = false
    ) -> NetworkDescription {
        var nodes =
            [
                NodeDescription(id: 2, kind: .fgd212, name: "dimmer", level: 0, loads: [60], sceneActivation: false)
            ] + extraNodes
        if let joinAfter {
            nodes.append(
                NodeDescription(id: 10, kind: .joining, name: "new device", joinsAs: joinsAs, joinAfter: joinAfter))
        }
        return NetworkDescription(nodes: nodes, txStatusReport: txStatusReport)
    }

    /// What else the bridge gets.
    struct Options: Sendable {
        /// Extra arguments of `thuis-bridge run` (e.g. `--log-level debug`).
        var bridgeArguments: [String] = []
        /// The text of a network key file (`zwave.key`, mode 0600) named by `[zwave] network_key_file`.
        var networkKey: String?
        /// `[zwave] log_level` (OpenZWave's own log).
        var zwaveLogLevel: OpenZWaveLogLevel?
        /// `[zwave] openzwave_patches`.
        var openZWavePatches: Bool?
        /// Emulated nodes besides node 2 (not in devices.toml).
        var extraNodes: [NodeDescription] = []
        /// `associations` of node 2's `[[zwave.device]]`, as written in devices.toml.
        var associations: String?
        /// `[zwave] ping_silent_after` (seconds).
        var pingSilentAfter: Int?
        /// Whether the emulated stick reports each frame's route (the extended transmit status report).
        var txStatusReport = false
    }

    init(name: String, joinAfter: Double?, joinsAs: NodeKind = .binarySwitch, options: Options = Options())
        async throws
    {
        bridgeName = name
        broker = try await MosquittoBroker.start()
        directory = try TemporaryDirectory(prefix: "thuis-incl")
        stick = ZWaveStickEmulator(
            network: Self.network(
                joinAfter: joinAfter, joinsAs: joinsAs, extraNodes: options.extraNodes,
                txStatusReport: options.txStatusReport))
        try stick.start(link: directory.file("zwave"))
        var fixture = ConfigFixture(
            name: name, mqtt: .local(port: broker.port),
            zwave: .init(
                port: directory.file("zwave"), stateDirectory: directory.file("state"),
                logLevel: options.zwaveLogLevel,
                devices: [.init(node: 2, room: "bedroom", name: "light", associations: options.associations)]))
        fixture.zwave?.openZWavePatches = options.openZWavePatches
        fixture.zwave?.pingSilentAfter = options.pingSilentAfter
        if let key = options.networkKey {
            let file = try directory.write("zwave.key", key)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
            fixture.zwave?.networkKeyFile = file
        }
        config = try directory.write("devices.toml", fixture.text)
        watcher = try await MQTTTestClient.connect(port: broker.port)
        try await watcher.subscribe("Thuis/#")
        bridge = try ChildProcess(
            executable: try BuiltProduct.executable(named: "thuis-bridge").path,
            arguments: ["run", "--config", config] + options.bridgeArguments, workingDirectory: directory.path)
    }

    /// Waits until the bridge is online and node 2's interview is complete (its level is retained).
    func waitUntilReady() async throws {
        try await watcher.waitForMessage(
            topic: "Thuis/bridge/\(bridgeName)/state", text: "online", timeout: .seconds(20))
        try await watcher.waitForMessage(
            topic: "Thuis/device/bedroom/light/availability", text: "online", timeout: .seconds(40))
        _ = try await watcher.waitForMessage(topic: "Thuis/device/bedroom/light", timeout: .seconds(40))
    }

    /// Starts `thuis-bridge <arguments> --config <config>`.
    func cli(_ arguments: [String]) throws -> ChildProcess {
        try Self.cli(arguments + ["--config", config], directory: directory)
    }

    static func cli(_ arguments: [String], directory: TemporaryDirectory) throws -> ChildProcess {
        try ChildProcess(
            executable: try BuiltProduct.executable(named: "thuis-bridge").path, arguments: arguments,
            workingDirectory: directory.path)
    }

    var eventTopic: String { "Thuis/bridge/\(bridgeName)/event" }

    /// Waits for a bridge event of `type` after `from` whose decoded fields satisfy `predicate`.
    @discardableResult
    func waitForEvent(
        _ type: String, from: Int = 0, timeout: Duration = .seconds(30),
        where predicate: @Sendable (JSONMessage) -> Bool = { _ in true }
    ) async throws -> JSONMessage {
        try await watcher.waitForEvent(type, topic: eventTopic, from: from, timeout: timeout, where: predicate)
    }

    var mark: Int { get async { await watcher.received.count } }

    func stop() async {
        _ = await bridge.stop(timeout: .seconds(15))
        stick.stop()
        await watcher.close()
        await broker.stop()
        directory.remove()
    }

    /// Runs `body` with a started, ready house, printing the bridge's output when it fails, stopping
    /// everything after.
    static func with(
        name: String, joinAfter: Double?, joinsAs: NodeKind = .binarySwitch, options: Options = Options(),
        _ body: (InclusionHouse) async throws -> Void
    ) async throws {
        let house = try await InclusionHouse(name: name, joinAfter: joinAfter, joinsAs: joinsAs, options: options)
        do {
            try await house.waitUntilReady()
            try await body(house)
        } catch {
            print("bridge output:\n\(house.bridge.outputText.suffix(20_000))")
            await house.stop()
            throw error
        }
        await house.stop()
    }
}
