import BridgeCore
import HomeAssistant
import Logging
import TestSupport
import Testing

/// The discovery lifecycle: publish, update in place, clear what is gone, clear leftovers of earlier runs once
/// the namespace is known in full, and publish again when Home Assistant comes online.
@Suite struct HomeAssistantDiscoveryTests {
    let identity = BridgeIdentity(name: "living")
    let light = DeviceDescriptor(
        address: DeviceAddress(room: "bedroom", name: "light"), kind: .dimmer, source: .zwave(node: 2, instance: nil),
        metered: true)
    let tv = DeviceDescriptor(
        address: DeviceAddress(room: "living", name: "tv"), kind: .tv, source: .cec(logicalAddress: 0))
    let lightConfig = "homeassistant/light/thuis_zwave_c0ffee01/thuis_zwave_c0ffee01_2_light/config"
    let tvConfig = "homeassistant/switch/thuis_living/thuis_living_cec_0_power/config"

    func inventory(_ devices: [DeviceDescriptor], complete: Set<Adapter> = [.zwave, .cec]) -> BridgeInventory {
        BridgeInventory(
            identity: identity, devices: devices.map { BridgeInventory.Device(descriptor: $0) },
            networks: [.zwave: "c0ffee01"], complete: complete)
    }

    func discovery(_ mqtt: FakeMQTTPort) -> HomeAssistantDiscovery {
        HomeAssistantDiscovery(
            prefix: "homeassistant", bridge: identity, mqtt: mqtt, logger: Logger(label: "test"),
            delayMilliseconds: 0...0)
    }

    @Test func configsArePublishedRetainedOnceAndClearedWhenTheDeviceGoes() async {
        let mqtt = FakeMQTTPort()
        let discovery = discovery(mqtt)
        await discovery.inventoryChanged(inventory([light, tv]))
        #expect(await mqtt.retained[lightConfig] != nil)
        #expect(await mqtt.retained[tvConfig] != nil)
        // Our namespaces, with No Local: the broker does not send our own configs back.
        let namespaces = ["homeassistant/+/thuis_living/+/config", "homeassistant/+/thuis_zwave_c0ffee01/+/config"]
        #expect(await mqtt.subscriptions == namespaces)
        let options = await mqtt.subscriptionOptions
        #expect(namespaces.map { options[$0] } == [.noLocal, .noLocal])
        let count = await mqtt.published.count

        // The same inventory again publishes nothing.
        await discovery.inventoryChanged(inventory([light, tv]))
        #expect(await mqtt.published.count == count)

        // The node was excluded: every config of it is cleared, retained and empty; the TV's stay.
        await discovery.inventoryChanged(inventory([tv]))
        let cleared = await mqtt.published.dropFirst(count)
        #expect(cleared.allSatisfy { $0.payload.isEmpty && $0.retain && $0.topic.contains("thuis_zwave_c0ffee01") })
        #expect(cleared.count == 14)  // light, power, energy, scene event and 10 triggers
        #expect(await mqtt.retained[lightConfig] == nil)
        #expect(await mqtt.retained[tvConfig] != nil)
    }

    /// A sensor node's sensors are found one by one (each value of its interview): each new one is published as it
    /// comes, those already published are not published again, and the node's exclusion clears every one.
    @Test func sensorsFoundLaterArePublishedAsTheyCome() async {
        let mqtt = FakeMQTTPort()
        let discovery = discovery(mqtt)
        func sensorNode(_ sensors: [Sensor: String]) -> DeviceDescriptor {
            DeviceDescriptor(
                address: DeviceAddress(room: "hall", name: "motion"), kind: .sensor,
                source: .zwave(node: 5, instance: nil), sensors: sensors)
        }
        let temperature = "homeassistant/sensor/thuis_zwave_c0ffee01/thuis_zwave_c0ffee01_5_temperature/config"
        let motion = "homeassistant/binary_sensor/thuis_zwave_c0ffee01/thuis_zwave_c0ffee01_5_motion/config"
        await discovery.inventoryChanged(inventory([sensorNode([.temperature: "°C"]), tv]))
        #expect(await mqtt.retained[temperature] != nil)
        let count = await mqtt.published.count

        await discovery.inventoryChanged(inventory([sensorNode([.temperature: "°C", .motion: ""]), tv]))
        let added = await mqtt.published.dropFirst(count)
        #expect(added.map(\.topic) == [motion], "\(added.map(\.topic))")

        await discovery.inventoryChanged(inventory([tv]))
        let retained = await mqtt.retained
        #expect(retained[temperature] == nil && retained[motion] == nil)
    }

    /// A Z-Wave device whose kind devices.toml only lets the bridge assume (a dimmer) gets no config until the
    /// hardware tells its kind: then the configs of what it is (a switch) are the first and only ones. A config an
    /// earlier run left for that node stays while its kind is unknown, even once the network is queried.
    @Test func aNodeGetsItsConfigsOnlyOnceItsKindIsKnown() async {
        let mqtt = FakeMQTTPort()
        let discovery = discovery(mqtt)
        let assumed = DeviceDescriptor(
            address: light.address, kind: .dimmer, source: light.source, metered: true, kindKnown: false)
        let earlier = "homeassistant/switch/thuis_zwave_c0ffee01/thuis_zwave_c0ffee01_2_switch/config"
        await discovery.inventoryChanged(inventory([assumed, tv]))
        await discovery.receive(InboundMessage(topic: earlier, payload: Array("{}".utf8), retained: true))
        #expect(await mqtt.published.allSatisfy { !$0.topic.contains("thuis_zwave_c0ffee01") })
        #expect(await mqtt.retained[tvConfig] != nil)

        let identified = DeviceDescriptor(
            address: light.address, kind: .binarySwitch, source: light.source, metered: false)
        await discovery.inventoryChanged(inventory([identified, tv]))
        let node = await mqtt.published.filter { $0.topic.contains("thuis_zwave_c0ffee01") }
        #expect(node.map(\.topic) == [earlier], "\(node.map(\.topic))")
        #expect(node.allSatisfy { !$0.payload.isEmpty })
    }

    /// Configs an earlier run published (they come back retained) and this run does not produce are cleared,
    /// but only once the namespace is known in full: a Z-Wave node is not cleared before the network is
    /// queried (it may still be reported).
    @Test func leftoversOfAnEarlierRunAreClearedOnceTheNamespaceIsComplete() async {
        let mqtt = FakeMQTTPort()
        let discovery = discovery(mqtt)
        let oldCEC = "homeassistant/switch/thuis_living/thuis_living_cec_5_power/config"
        let oldNode = "homeassistant/switch/thuis_zwave_c0ffee01/thuis_zwave_c0ffee01_9_switch/config"
        let otherBridge = "homeassistant/switch/thuis_attic/thuis_attic_cec_0_power/config"
        await discovery.inventoryChanged(inventory([light, tv], complete: [.cec]))
        for topic in [oldCEC, oldNode, otherBridge, tvConfig] {
            await discovery.receive(InboundMessage(topic: topic, payload: Array("{}".utf8), retained: true))
        }
        // Our own publication echoed back live is not a leftover.
        await discovery.receive(InboundMessage(topic: lightConfig, payload: Array("{}".utf8), retained: false))
        #expect(await mqtt.messages(on: oldCEC).map(\.payload) == [""])
        #expect(await mqtt.messages(on: oldNode).isEmpty)
        #expect(await mqtt.messages(on: otherBridge).isEmpty)
        #expect(await mqtt.messages(on: tvConfig).count == 1)  // the config itself, not cleared

        await discovery.inventoryChanged(inventory([light, tv], complete: [.cec, .zwave]))
        #expect(await mqtt.messages(on: oldNode).map(\.payload) == [""])
        #expect(await mqtt.messages(on: otherBridge).isEmpty)
        #expect(await mqtt.retained[lightConfig] != nil)
    }

    /// `homeassistant/status` `online`: every config again, then the bridge's availability and states.
    @Test func homeAssistantOnlineRepublishesDiscoveryThenStates() async throws {
        let mqtt = FakeMQTTPort()
        let discovery = discovery(mqtt)
        let bridge = Bridge(
            identity: identity, devices: [light], backends: [FakeDeviceBackend(adapter: .zwave)],
            frontEnds: [discovery], mqtt: mqtt, logger: Logger(label: "test"))
        let (inbound, toBridge) = AsyncStream.makeStream(of: InboundMessage.self)
        let (hardware, fromHardware) = AsyncStream.makeStream(of: HardwareEvent.self)
        let running = Task { await bridge.run(inbound: inbound, hardware: [hardware]) }
        fromHardware.yield(.network(.zwave, id: "c0ffee01"))
        fromHardware.yield(.adapterAvailability(adapter: .zwave, online: true, reason: "ready"))
        fromHardware.yield(.update(light.source, .level(40)))
        await mqtt.waitFor("Thuis/device/bedroom/light", payload: "40")
        await mqtt.waitFor(lightConfig)
        #expect(await mqtt.subscriptions.contains("homeassistant/status"))
        #expect(await mqtt.subscriptions.contains("homeassistant/+/thuis_living/+/config"))
        let mark = await mqtt.published.count

        toBridge.yield(InboundMessage(topic: "homeassistant/status", payload: Array("online".utf8), retained: false))
        // The state is the last of the republished (config, availability, then state): wait for it, not for the
        // availability before it (then the state may not be sent yet).
        await mqtt.waitFor("Thuis/device/bedroom/light", payload: "40", after: mark)
        let again = await mqtt.published.dropFirst(mark).map(\.topic)
        let config = again.firstIndex(of: lightConfig)
        let state = again.firstIndex(of: "Thuis/device/bedroom/light")
        #expect(config != nil && state != nil)
        if let config, let state { #expect(config < state, "discovery first, then states") }
        // Home Assistant's topics are not the bridge's: no command_rejected for them.
        #expect(await mqtt.messages(on: "Thuis/bridge/living/event").isEmpty)
        running.cancel()
        await running.value
    }

    /// The MQTT connection does not keep the configs: on each connection (the broker may have lost them) discovery
    /// publishes every one again.
    @Test(.timeLimit(.minutes(1))) func aReconnectPublishesEveryConfigAgain() async throws {
        let mqtt = FakeMQTTPort()
        let discovery = discovery(mqtt)
        let bridge = Bridge(
            identity: identity, devices: [light, tv], backends: [FakeDeviceBackend(adapter: .zwave)],
            frontEnds: [], mqtt: mqtt, logger: Logger(label: "test"))
        await discovery.inventoryChanged(inventory([light, tv]))  // returns once published
        let configs = Set(await mqtt.published.filter { $0.topic.hasSuffix("/config") }.map(\.topic))
        #expect(configs.contains(lightConfig) && configs.contains(tvConfig))
        let mark = await mqtt.published.count

        let serving = Task { await discovery.run(serving: bridge) }
        await mqtt.reconnect()
        for topic in configs.sorted() { await mqtt.waitFor(topic, after: mark) }
        #expect(await mqtt.retained[lightConfig] != nil)
        serving.cancel()
        await serving.value
    }
}
