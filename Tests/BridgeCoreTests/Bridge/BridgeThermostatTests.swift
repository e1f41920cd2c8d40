import BridgeCore
import Logging
import TestSupport
import Testing

/// Thermostats through the bridge over fakes: the kind comes from the hardware, the mode is the state (and
/// `/mode`), the setpoint is published in the device's precision, `/setpoint/set` takes a number in the device's range,
/// `/set` and `/mode/set` a mode it supports; the inventory lists the range and the modes.
@Suite struct BridgeThermostatTests {
    /// devices.toml's `node = 5, room = "bedroom", name = "radiator"`: the configuration's first guess (a dimmer).
    let radiator = DeviceDescriptor(
        address: DeviceAddress(room: "bedroom", name: "radiator"), kind: .dimmer,
        source: .zwave(node: 5, instance: nil), kindKnown: false)
    let node = DeviceSource.zwave(node: 5, instance: 1)
    let base = "Thuis/device/bedroom/radiator"
    let spirit = ThermostatTraits(
        minimum: 8, maximum: 28, unit: "°C", precision: 1, modes: [.off, .heat, .eco, .boost, .manufacturerSpecific])

    func withBridge(_ body: @Sendable (Bridge, FakeMQTTPort, FakeDeviceBackend) async throws -> Void) async throws {
        let mqtt = FakeMQTTPort()
        let zwave = FakeDeviceBackend(adapter: .zwave)
        let bridge = Bridge(
            identity: BridgeIdentity(name: "bedroom"), devices: [radiator], scenes: [], backends: [zwave], mqtt: mqtt,
            logger: Logger(label: "test"))
        await bridge.start()
        await bridge.apply(.adapterAvailability(adapter: .zwave, online: true, reason: ""))
        await bridge.apply(.identified(node, kind: .thermostat, metered: false))
        await bridge.apply(.thermostatFound(node, spirit))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await bridge.runCommandQueue() }
            try await body(bridge, mqtt, zwave)
            await bridge.shutdown()
            try await group.waitForAll()
        }
    }

    func message(_ topic: String, _ payload: String) -> InboundMessage {
        InboundMessage(topic: topic, payload: Array(payload.utf8), retained: false)
    }

    func rejections(_ mqtt: FakeMQTTPort) async -> [String] {
        await mqtt.events(on: "Thuis/bridge/bedroom/event").filter { $0["type"] == "command_rejected" }.compactMap {
            if case .string(let reason)? = $0["reason"] { reason } else { nil }
        }
    }

    @Test func theInventoryListsTheRangeAndModesAndTheStateIsTheMode() async throws {
        try await withBridge { bridge, mqtt, _ in
            guard case .array(let devices)? = await mqtt.events(on: "Thuis/bridge/bedroom/devices").last else {
                Issue.record("no inventory")
                return
            }
            let entry = devices.first
            #expect(entry?["kind"] == "thermostat")
            #expect(entry?["setpoint"]?["min"] == .double(8) && entry?["setpoint"]?["max"] == .double(28))
            #expect(entry?["setpoint"]?["step"] == .double(0.5) && entry?["setpoint"]?["unit"] == "°C")
            #expect(entry?["modes"] == ["off", "heat", "eco", "boost", "manufacturer_specific"])
            await bridge.apply(.update(node, .setpoint(DeviceState.Measurement(value: 20, precision: 1))))
            await bridge.apply(.update(node, .mode(.heat)))
            // A radiator valve's opening (its Switch Multilevel) is no state of a thermostat.
            await bridge.apply(.update(node, .level(40)))
            #expect(await mqtt.retained["\(base)/setpoint"] == "20.0")
            let retained = await mqtt.retained
            #expect(retained["\(base)/mode"] == "heat" && retained[base] == "heat")
            await bridge.apply(.update(node, .mode(.eco)))
            #expect(await mqtt.messages(on: base).map(\.payload) == ["heat", "eco"])
            #expect(await mqtt.messages(on: "\(base)/mode").allSatisfy(\.retain))
            await bridge.apply(.update(node, .operatingState("heating")))
            #expect(await mqtt.retained["\(base)/operating_state"] == "heating")
        }
    }

    @Test func setpointSetTakesANumberInTheRange() async throws {
        try await withBridge { bridge, mqtt, zwave in
            await bridge.receive(message("\(base)/setpoint/set", "21.5"))
            await zwave.waitForCommands(1)
            #expect(await zwave.commands == [.setpoint(21.5)])
            for payload in ["35", "7.5", "warm", "21,5", "nan"] {
                await bridge.receive(message("\(base)/setpoint/set", payload))
            }
            #expect(
                await rejections(mqtt) == [
                    "setpoint 35 is out of range; this thermostat takes 8..28 °C",
                    "setpoint 7.5 is out of range; this thermostat takes 8..28 °C",
                    "setpoint \"warm\" is not a number; this thermostat takes 8..28 °C",
                    "setpoint \"21,5\" is not a number; this thermostat takes 8..28 °C",
                    "setpoint \"nan\" is not a number; this thermostat takes 8..28 °C",
                ])
            #expect(await zwave.commands.count == 1)
            // The same check for a typed command (HomeKit, a dashboard).
            #expect(await bridge.submit(.setpoint(40), to: radiator.address, from: .homeKit) != nil)
            let wire = DeviceCommand.setpoint(21.5).wire(
                TopicScheme(prefix: "Thuis", bridge: "bedroom").device(radiator.address))
            #expect(wire.topic == "\(base)/setpoint/set" && wire.payload == "21.5")
        }
    }

    @Test func modeSetAndSetTakeTheModesTheDeviceHas() async throws {
        try await withBridge { bridge, mqtt, zwave in
            for (count, (topic, payload)) in [
                ("\(base)/mode/set", "eco"), ("\(base)/set", "off"), ("\(base)/set", "ON"),
                ("\(base)/mode/set", "boost"),
            ].enumerated() {
                await bridge.receive(message(topic, payload))
                await zwave.waitForCommands(count + 1)
            }
            #expect(await zwave.commands == [.mode(.eco), .mode(.off), .mode(.heat), .mode(.boost)])
            await bridge.receive(message("\(base)/mode/set", "cool"))
            await bridge.receive(message("\(base)/set", "50"))
            await bridge.receive(message("\(base)/mode/set", "toggle"))
            let reasons = await rejections(mqtt)
            #expect(
                reasons == [
                    "this thermostat has no mode cool; it takes off, heat, eco, boost, manufacturer_specific (on is heat)",
                    "unknown mode \"50\"; this thermostat takes off, heat, eco, boost, manufacturer_specific (on is heat)",
                    "unknown mode \"toggle\"; this thermostat takes off, heat, eco, boost, manufacturer_specific (on is heat)",
                ])
            // A typed on/off/level is no thermostat command.
            #expect(await bridge.submit(.on, to: radiator.address, from: .homeKit) != nil)
            #expect(await bridge.submit(.level(40), to: radiator.address, from: .homeKit) != nil)
            #expect(await zwave.commands.count == 4)
        }
    }

    /// A setpoint or mode for a device that is no thermostat is refused with the reason.
    @Test func otherKindsHaveNoSetpointOrMode() throws {
        let dimmer = DeviceDescriptor(
            address: DeviceAddress(room: "hall", name: "light"), kind: .dimmer, source: .zwave(node: 2, instance: nil))
        #expect(throws: PayloadError("a dimmer has no setpoint; only a thermostat")) {
            try PayloadParser.command(for: .setpointSet(dimmer.address), payload: Array("20".utf8), device: dimmer)
        }
        #expect(throws: PayloadError("a dimmer has no mode; only a thermostat")) {
            try PayloadParser.command(for: .modeSet(dimmer.address), payload: Array("heat".utf8), device: dimmer)
        }
        #expect(DeviceCommand.mode(.heat).refusal(for: dimmer)?.reason == "a dimmer has no mode; only a thermostat")
        let topics = TopicScheme(prefix: "Thuis", bridge: "hall")
        #expect(
            try topics.parseInbound("Thuis/device/a/b/setpoint/set")
                == .setpointSet(DeviceAddress(room: "a", name: "b")))
        #expect(try topics.parseInbound("Thuis/device/a/b/mode/set") == .modeSet(DeviceAddress(room: "a", name: "b")))
    }
}
