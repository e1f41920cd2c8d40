import BridgeCore
import Logging
import TestSupport
import Testing

/// Several bridges on one broker. Each answers only for its own devices; what no bridge serves
/// is reported by one of them.
@Suite struct BridgePeersTests {
    let lamp = DeviceDescriptor(
        address: DeviceAddress(room: "hall", name: "lamp"), kind: .dimmer, source: .zwave(node: 2, instance: nil))

    /// The bridge `name` with the hall lamp, its adapter online.
    func bridge(_ name: String) async -> (Bridge, FakeMQTTPort, FakeDeviceBackend) {
        let mqtt = FakeMQTTPort()
        let backend = FakeDeviceBackend(adapter: .zwave)
        let bridge = Bridge(
            identity: BridgeIdentity(name: name), devices: [lamp], backends: [backend], mqtt: mqtt,
            logger: Logger(label: "test"))
        await bridge.start()
        await bridge.apply(.adapterAvailability(adapter: .zwave, online: true, reason: ""))
        return (bridge, mqtt, backend)
    }

    func message(_ topic: String, _ payload: String, retained: Bool = false) -> InboundMessage {
        InboundMessage(topic: topic, payload: Array(payload.utf8), retained: retained)
    }

    func rejected(_ mqtt: FakeMQTTPort, _ name: String) async -> [String] {
        await mqtt.events(on: "Thuis/bridge/\(name)/event").filter { $0["type"] == "command_rejected" }
            .compactMap { if case .string(let topic)? = $0["topic"] { topic } else { nil } }
    }

    @Test func theOtherBridgesAreKnownBeforeAnyCommandArrives() async throws {
        let (_, mqtt, _) = await bridge("living")
        let subscriptions = await mqtt.subscriptions
        let peers = try #require(subscriptions.firstIndex(of: "Thuis/device/+/+/availability"))
        let states = try #require(subscriptions.firstIndex(of: "Thuis/bridge/+/state"))
        let commands = try #require(subscriptions.firstIndex(of: "Thuis/device/+/+/set"))
        #expect(peers < commands && states < commands, "\(subscriptions)")
    }

    @Test func anotherBridgesDeviceIsLeftToItSilently() async throws {
        let (bridge, mqtt, backend) = await bridge("living")
        // The zolder bridge is online and serves kitchen/kettle (its retained state and availability); living
        // sorts first, so it reports what no bridge serves.
        await bridge.receive(message("Thuis/bridge/zolder/state", "online", retained: true))
        await bridge.receive(message("Thuis/device/kitchen/kettle/availability", "online", retained: true))
        await bridge.receive(message("Thuis/device/kitchen/kettle/set", "on"))
        await bridge.receive(message("Thuis/device/kitchen/kettle/set", "on", retained: true))
        await bridge.receive(message("Thuis/device/kitchen/kettle/power/set", "1"))
        #expect(await rejected(mqtt, "living").isEmpty)
        // Its own device works as before.
        let runner = Task { await bridge.runCommandQueue() }
        await bridge.receive(message("Thuis/device/hall/lamp/set", "30"))
        await backend.waitForCommands(1)
        #expect(await backend.commands == [.level(30)])
        // A device whose topics its bridge cleared (excluded) is served by no one again: reported.
        await bridge.receive(message("Thuis/device/kitchen/kettle/availability", "", retained: true))
        await bridge.receive(message("Thuis/device/kitchen/kettle/set", "on"))
        #expect(await rejected(mqtt, "living") == ["Thuis/device/kitchen/kettle/set"])
        await bridge.shutdown()
        await runner.value
    }

    @Test func whatNoBridgeServesIsReportedByTheOnlineBridgeWhoseNameSortsFirst() async throws {
        let (bridge, mqtt, _) = await bridge("living")
        await bridge.receive(message("Thuis/bridge/attic/state", "online", retained: true))
        await bridge.receive(message("Thuis/bridge/zolder/state", "online", retained: true))
        await bridge.receive(message("Thuis/device/hall/lmap/set", "on"))
        await bridge.receive(message("Thuis/device/hall lamp/x/set", "on"))
        #expect(await rejected(mqtt, "living").isEmpty, "attic reports it")
        // The attic bridge stops (its state offline, or its last will): living sorts first now.
        await bridge.receive(message("Thuis/bridge/attic/state", "offline", retained: true))
        await bridge.receive(message("Thuis/device/hall/lmap/set", "on"))
        await bridge.receive(message("Thuis/device/hall lamp/x/set", "on"))
        #expect(await rejected(mqtt, "living") == ["Thuis/device/hall/lmap/set", "Thuis/device/hall lamp/x/set"])
        let events = await mqtt.events(on: "Thuis/bridge/living/event")
        #expect(events.first?["reason"] == "unknown device hall/lmap: no bridge on this broker serves it")
    }
}
