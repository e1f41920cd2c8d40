import BridgeCore
import Logging
import TestSupport
import Testing

/// Sensors through the bridge over fakes: a sensor node's kind comes from the hardware, its readings are retained
/// topics under the device in the contract's formats, its units are in the inventory.
@Suite struct BridgeSensorTests {
    /// devices.toml's `node = 12, room = "hall", name = "motion"`: the configuration's first guess (a dimmer).
    let hall = DeviceDescriptor(
        address: DeviceAddress(room: "hall", name: "motion"), kind: .dimmer, source: .zwave(node: 12, instance: nil),
        metered: true, kindKnown: false)
    let bedroom = DeviceDescriptor(
        address: DeviceAddress(room: "bedroom", name: "light"), kind: .dimmer, source: .zwave(node: 2, instance: nil))

    func withBridge(_ body: @Sendable (Bridge, FakeMQTTPort) async throws -> Void) async throws {
        let mqtt = FakeMQTTPort()
        let bridge = Bridge(
            identity: BridgeIdentity(name: "living"), devices: [hall, bedroom], scenes: [],
            backends: [FakeDeviceBackend(adapter: .zwave)], mqtt: mqtt, logger: Logger(label: "test"))
        await bridge.start()
        await bridge.apply(.adapterAvailability(adapter: .zwave, online: true, reason: ""))
        try await body(bridge, mqtt)
        await bridge.shutdown()
    }

    /// The inventory entry of `room/name`, as last published.
    func inventoryEntry(_ mqtt: FakeMQTTPort, _ room: String, _ name: String) async -> JSONValue? {
        guard case .array(let devices)? = await mqtt.events(on: "Thuis/bridge/living/devices").last else { return nil }
        return devices.first { $0["room"] == .string(room) && $0["name"] == .string(name) }
    }

    func measurement(_ value: Double, _ precision: Int) -> SensorReading {
        .measurement(DeviceState.Measurement(value: value, precision: precision))
    }

    @Test func aSensorNodeGetsItsKindAndSensorTopicsWithUnitsInTheInventory() async throws {
        try await withBridge { bridge, mqtt in
            let node = DeviceSource.zwave(node: 12, instance: 1)
            await bridge.apply(.identified(node, kind: .sensor, metered: false))
            await bridge.apply(
                .sensorsFound(node, [.temperature: "°C", .humidity: "%", .motion: "", .contact: "", .battery: "%"]))
            await bridge.apply(.update(node, .sensor(.temperature, measurement(21.5, 1))))
            await bridge.apply(.update(node, .sensor(.humidity, measurement(45, 0))))
            await bridge.apply(.update(node, .sensor(.motion, .active(true))))
            await bridge.apply(.update(node, .sensor(.contact, .active(true))))
            await bridge.apply(.update(node, .sensor(.battery, measurement(90, 0))))
            let retained = await mqtt.retained
            #expect(retained["Thuis/device/hall/motion/temperature"] == "21.5")
            #expect(retained["Thuis/device/hall/motion/humidity"] == "45")
            #expect(retained["Thuis/device/hall/motion/motion"] == "on")
            #expect(retained["Thuis/device/hall/motion/contact"] == "open")
            #expect(retained["Thuis/device/hall/motion/battery"] == "90")
            // A sensor device has no state topic of its own.
            #expect(retained["Thuis/device/hall/motion"] == nil)
            #expect(await mqtt.messages(on: "Thuis/device/hall/motion/temperature").allSatisfy(\.retain))

            let entry = await inventoryEntry(mqtt, "hall", "motion")
            #expect(entry?["kind"] == "sensor")
            #expect(
                entry?["sensors"]?.serialized
                    == #"{"temperature":"°C","humidity":"%","motion":null,"contact":null,"battery":"%","battery_low":null}"#
            )

            // A change is published; the same reading again is not; a finer report keeps the first format.
            await bridge.apply(.update(node, .sensor(.motion, .active(false))))
            await bridge.apply(.update(node, .sensor(.motion, .active(false))))
            await bridge.apply(.update(node, .sensor(.temperature, measurement(21.54, 2))))
            #expect(await mqtt.messages(on: "Thuis/device/hall/motion/motion").map(\.payload) == ["on", "off"])
            #expect(await mqtt.retained["Thuis/device/hall/motion/temperature"] == "21.5")
        }
    }

    /// A reading of a sensor the device does not have is not published (a Notification's "Clear" ends tamper and
    /// motion alike; a door sensor has no motion).
    @Test func aReadingOfASensorTheDeviceLacksIsDropped() async throws {
        try await withBridge { bridge, mqtt in
            let node = DeviceSource.zwave(node: 12, instance: 1)
            await bridge.apply(.identified(node, kind: .sensor, metered: false))
            await bridge.apply(.sensorsFound(node, [.tamper: ""]))
            await bridge.apply(.update(node, .sensor(.motion, .active(false))))
            await bridge.apply(.update(node, .sensor(.tamper, .active(false))))
            let retained = await mqtt.retained
            #expect(retained["Thuis/device/hall/motion/motion"] == nil)
            #expect(retained["Thuis/device/hall/motion/tamper"] == "off")
        }
    }

    /// A dimmer with a temperature sensor keeps its state topic and gains the sensor's; a sensor of another endpoint
    /// of the node belongs to the node's device.
    @Test func aSwitchWithSensorsKeepsItsStateAndGainsSensorTopics() async throws {
        try await withBridge { bridge, mqtt in
            await bridge.apply(.sensorsFound(.zwave(node: 2, instance: 2), [.temperature: "°C"]))
            await bridge.apply(.update(.zwave(node: 2, instance: 1), .level(40)))
            await bridge.apply(.update(.zwave(node: 2, instance: 2), .sensor(.temperature, measurement(23.25, 2))))
            let retained = await mqtt.retained
            #expect(retained["Thuis/device/bedroom/light"] == "40")
            #expect(retained["Thuis/device/bedroom/light/temperature"] == "23.25")
            let entry = await inventoryEntry(mqtt, "bedroom", "light")
            #expect(entry?["kind"] == "dimmer")
            #expect(entry?["sensors"]?.serialized == #"{"temperature":"°C"}"#)
        }
    }

    /// An unassigned sensor node appears as `unassigned/node<N>` with its sensors; when it leaves, its sensor topics
    /// are cleared with the rest.
    @Test func anUnassignedSensorNodeAppearsAndItsTopicsAreClearedWhenItLeaves() async throws {
        try await withBridge { bridge, mqtt in
            let source = DeviceSource.zwave(node: 3, instance: nil)
            await bridge.apply(
                .discovered(
                    DeviceDescriptor(
                        address: TopicScheme.unassignedAddress(node: 3, instance: nil), kind: .sensor, source: source,
                        configured: false)))
            await bridge.apply(.sensorsFound(.zwave(node: 3, instance: 1), [.contact: "", .battery: "%"]))
            await bridge.apply(.update(.zwave(node: 3, instance: 1), .sensor(.contact, .active(false))))
            #expect(await mqtt.retained["Thuis/device/unassigned/node3/contact"] == "closed")
            #expect(
                await inventoryEntry(mqtt, "unassigned", "node3")?["sensors"]?.serialized
                    == #"{"contact":null,"battery":"%","battery_low":null}"#)
            await bridge.apply(.removed(source))
            #expect(await mqtt.retained["Thuis/device/unassigned/node3/contact"] == nil)
            #expect(await mqtt.messages(on: "Thuis/device/unassigned/node3/battery").last?.payload == "")
        }
    }

    /// A sensor takes no commands.
    @Test func aSensorTakesNoCommands() {
        #expect(throws: PayloadError.self) { try PayloadParser.deviceCommand(Array("on".utf8), kind: .sensor) }
    }
}
