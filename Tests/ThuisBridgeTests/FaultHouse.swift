import CECEmulator
import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import ZWaveEmulator

/// The fixture of the fault and security tests: a real mosquitto with chosen options, optionally
/// the emulated Z-Wave stick with the house's devices (ZWaveHouse.zwave), the real `thuis-bridge run`
/// process and a subscriber on everything under `Thuis/`.
final class FaultHouse: Sendable {
    /// How to build the house.
    struct Options: Sendable {
        var broker = MosquittoBroker.Options()
        /// The `[mqtt]` section's credentials and TLS files (the house sets host and port).
        var mqtt = ConfigFixture.MQTT()
        /// Start the Z-Wave stick emulator and configure the `[zwave]` section.
        var zwave = true
        /// Whether the stick is plugged in (its link exists) when the bridge starts; when false the test starts it
        /// (`stick.start(link: house.zwavePort)`).
        var stickPluggedIn = true
        /// Start the emulated CEC adapter too (its TV as `living/tv`) and configure the `[cec]` section.
        var cec = false
        /// Configure the stick before the bridge starts (e.g. silent during init).
        var prepareStick: @Sendable (ZWaveStickEmulator) -> Void = { _ in }
        /// Adjust the watcher's options (credentials, TLS).
        var watcher: @Sendable (inout MQTTClientOptions) -> Void = { _ in }
        /// Extra arguments of `thuis-bridge run` (e.g. `--log-level trace`).
        var bridgeArguments: [String] = []
    }

    let broker: MosquittoBroker
    let stick: ZWaveStickEmulator?
    let cec: CECAdapterEmulator?
    let watcher: MQTTTestClient
    let directory: TemporaryDirectory
    let config: String
    let name: String
    let bridge: ChildProcess

    init(name: String, options: Options = Options()) async throws {
        self.name = name
        broker = try await MosquittoBroker.start(options.broker)
        directory = try TemporaryDirectory(prefix: "thuis-fault")
        var fixture = ConfigFixture(name: name, mqtt: options.mqtt)
        fixture.mqtt?.host = "127.0.0.1"
        fixture.mqtt?.port = broker.port
        if options.zwave {
            let stick = ZWaveStickEmulator(network: .defaultNetwork)
            options.prepareStick(stick)
            if options.stickPluggedIn { try stick.start(link: directory.file("zwave")) }
            self.stick = stick
            fixture.zwave = ZWaveHouse.zwave
            fixture.zwave?.port = directory.file("zwave")
            fixture.zwave?.stateDirectory = directory.file("state")
        } else {
            stick = nil
        }
        if options.cec {
            let cec = CECAdapterEmulator(configuration: CECEmulatorConfiguration())
            try cec.start(link: directory.file("cec"))
            self.cec = cec
            fixture.cec = .init(
                port: directory.file("cec"), devices: [.init(address: 0, room: "living", name: "tv")])
        } else {
            cec = nil
        }
        config = try directory.write("devices.toml", fixture.text)
        watcher = try await MQTTTestClient.connect(port: broker.port, configure: options.watcher)
        try await watcher.subscribe("Thuis/#")
        bridge = try ChildProcess(
            executable: try BuiltProduct.executable(named: "thuis-bridge").path,
            arguments: ["run", "--config", config] + options.bridgeArguments, workingDirectory: directory.path)
    }

    /// The stick's port as configured (the emulator's link).
    var zwavePort: String { directory.file("zwave") }
    var stateTopic: String { "Thuis/bridge/\(name)/state" }
    var eventTopic: String { "Thuis/bridge/\(name)/event" }
    var devicesTopic: String { "Thuis/bridge/\(name)/devices" }
    func topic(_ device: String, _ suffix: String = "") -> String { "Thuis/device/\(device)\(suffix)" }

    /// The configured Z-Wave devices.
    static let zwaveDevices = ["bedroom/light", "living/receiver", "living/subwoofer", "living/ambilight"]

    var mark: Int { get async { await watcher.received.count } }

    /// Waits for `text` on `topic` among messages after `from`.
    @discardableResult
    func waitFor(topic: String, _ text: String, from: Int = 0, timeout: Duration = .seconds(30)) async throws
        -> MQTTMessage
    {
        try await watcher.waitForMessage(topic: topic, text: text, from: from, timeout: timeout)
    }

    /// Waits until every configured Z-Wave device is `online` and has published a state.
    func waitForZWaveOnline(from: Int = 0, timeout: Duration = .seconds(90)) async throws {
        for device in Self.zwaveDevices {
            try await waitFor(topic: topic(device, "/availability"), "online", from: from, timeout: timeout)
            _ = try await watcher.waitForMessage(topic: topic(device), from: from, timeout: timeout)
        }
    }

    /// The bridge events after `from`, decoded.
    func events(from: Int = 0) async -> [JSONMessage] { await watcher.receivedJSON(on: eventTopic, from: from) }

    /// Waits for a bridge event of `type` after `from` whose decoded fields satisfy `predicate`.
    @discardableResult
    func waitForEvent(
        _ type: String, from: Int = 0, timeout: Duration = .seconds(30),
        where predicate: @Sendable (JSONMessage) -> Bool = { _ in true }
    ) async throws -> JSONMessage {
        try await watcher.waitForEvent(type, topic: eventTopic, from: from, timeout: timeout, where: predicate)
    }

    func publish(_ topic: String, _ text: String) async throws {
        try await watcher.publish(topic: topic, text: text)
    }

    func stop() async {
        _ = await bridge.stop(timeout: .seconds(15))
        stick?.stop()
        cec?.stop()
        await watcher.close()
        await broker.stop()
        directory.remove()
    }

    /// Runs `body` with a started house, printing the bridge's output when it fails, stopping everything after.
    static func with(name: String, options: Options = Options(), _ body: (FaultHouse) async throws -> Void) async throws
    {
        let house = try await FaultHouse(name: name, options: options)
        do {
            try await body(house)
        } catch {
            let output = house.bridge.outputText
            await house.stop()
            print("bridge \(name) output:\n\(output.suffix(20_000))")
            throw error
        }
        await house.stop()
    }
}
