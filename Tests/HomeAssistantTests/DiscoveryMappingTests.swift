import BridgeCore
import FoundationEssentials
import HomeAssistant
import Testing

/// The discovery config of every device kind, against golden files (`Golden/<kind>.json`: every config topic
/// with its payload). `THUIS_UPDATE_GOLDEN=1 swift test --filter DiscoveryMappingTests` writes them anew and fails
/// for each file it changed; a change to them is a change of what Home Assistant users see, to review as such.
@Suite struct DiscoveryMappingTests {
    static let identity = BridgeIdentity(name: "living")

    static func zwave(
        _ room: String, _ name: String, node: Int, instance: Int? = nil, kind: DeviceKind, metered: Bool,
        sensors: [Sensor: String] = [:]
    ) -> BridgeInventory.Device {
        BridgeInventory.Device(
            descriptor: DeviceDescriptor(
                address: DeviceAddress(room: room, name: name), kind: kind,
                source: .zwave(node: node, instance: instance), metered: metered,
                configured: room != TopicScheme.unassignedRoom, sensors: sensors),
            facts: products[node] ?? [:])
    }

    static let products: [Int: [String: String]] = [
        2: ["manufacturer": "FIBARO System", "product": "FGD212 Dimmer 2"],
        3: ["manufacturer": "Greenwave Reality", "product": "PowerNode 6"],
        5: ["manufacturer": "AEON Labs", "product": "ZW100 MultiSensor 6"],
        6: ["manufacturer": "FIBARO System", "product": "FGDW002 Door Opening Sensor 2"],
        8: ["manufacturer": "FIBARO System", "product": "FGR223 Roller Shutter Controller 3"],
        9: ["manufacturer": "Poly-control", "product": "Danalock V2 BTZE"],
        12: ["manufacturer": "EUROtronic", "product": "EUR_SPIRITZ Wall Radiator Thermostat"],
        13: ["manufacturer": "AEON Labs", "product": "ZW130 WallMote Quad"],
    ]

    static let dimmer = zwave("bedroom", "light", node: 2, kind: .dimmer, metered: true)
    static let sockets = [
        zwave("living", "ambilight", node: 3, instance: 4, kind: .socket, metered: true),
        zwave("living", "receiver", node: 3, instance: 1, kind: .socket, metered: true),
    ]
    static let binarySwitch = zwave("hall", "fan", node: 4, kind: .binarySwitch, metered: false)
    static let unassigned = zwave("unassigned", "node10", node: 10, kind: .binarySwitch, metered: false)
    /// The emulator's MultiSensor 6 (in devices.toml) and door sensor (not), with the units their interview gives.
    static let multiSensor = zwave(
        "hall", "motion", node: 5, kind: .sensor, metered: false,
        sensors: [
            .temperature: "°C", .humidity: "%", .luminance: "lx", .ultraviolet: "UV index", .motion: "", .tamper: "",
            .battery: "%",
        ])
    static let doorSensor = zwave(
        "unassigned", "node6", node: 6, kind: .sensor, metered: false,
        sensors: [.contact: "", .tamper: "", .temperature: "°C", .battery: "%"])
    /// Every other sensor, on a node of two devices (a socket with a temperature, and a meter node's sensors), and
    /// units Home Assistant does not take for the sensor's class.
    static let otherSensors = [
        zwave(
            "utility", "meter", node: 7, instance: 1, kind: .sensor, metered: false,
            sensors: [
                .pressure: "kPa", .co2: "ppm", .gasVolume: "m³", .waterVolume: "gal", .heatingEnergy: "kWh",
                .coolingEnergy: "kWh", .smoke: "", .water: "",
            ]),
        zwave(
            "utility", "odd_units", node: 7, instance: 2, kind: .socket, metered: true,
            sensors: [.luminance: "%", .humidity: "g/m³", .temperature: ""]),
    ]
    /// The emulator's roller shutter (FGR223), metered.
    static let shutter = zwave("living", "shutter", node: 8, kind: .cover, metered: true)
    /// The emulator's door lock (Danalock V2), with its battery.
    static let lock = zwave("hall", "door", node: 9, kind: .lock, metered: false, sensors: [.battery: "%"])
    /// The emulator's Eurotronic Spirit: 8-28 °C in 0.5 °C steps, off, heat, eco, boost and its own mode, a
    /// temperature sensor and a battery.
    static let thermostat: BridgeInventory.Device = {
        let device = zwave(
            "bedroom", "radiator", node: 12, kind: .thermostat, metered: false,
            sensors: [.temperature: "°C", .battery: "%", .batteryLow: ""])
        return BridgeInventory.Device(
            descriptor: device.descriptor.adding(
                thermostat: ThermostatTraits(
                    minimum: 8, maximum: 28, unit: "°C", precision: 1,
                    modes: [.off, .heat, .eco, .boost, .manufacturerSpecific])),
            facts: device.facts)
    }()
    /// A wall controller (Central Scene): button 1 with every action, button 2 (a v1 scene) pressed, held and
    /// released; its battery.
    static let wallmote: BridgeInventory.Device = {
        let device = zwave("hall", "wallmote", node: 13, kind: .buttons, metered: false, sensors: [.battery: "%"])
        return BridgeInventory.Device(
            descriptor: device.descriptor.adding(buttons: [1: ButtonAction.allCases, 2: [.pressed, .held, .released]]),
            facts: device.facts)
    }()
    static let tv = BridgeInventory.Device(
        descriptor: DeviceDescriptor(
            address: DeviceAddress(room: "living", name: "tv"), kind: .tv, source: .cec(logicalAddress: 0),
            inputs: ["appletv": "1.0.0.0", "chromecast": "2.0.0.0"]),
        facts: ["vendor": "Samsung"])

    static func configs(_ devices: [BridgeInventory.Device]) -> [DiscoveryConfig] {
        DiscoveryMapping.configs(
            for: BridgeInventory(identity: identity, devices: devices, networks: [.zwave: "c0ffee01"]))
    }

    /// The configs of `devices` as golden text, without the bridge's own (it has its own golden file).
    static func golden(_ devices: [BridgeInventory.Device]) -> String {
        configs(devices).filter { !$0.objectID.hasPrefix("thuis_bridge_") }.map { config in
            "\(config.topic(prefix: "homeassistant"))\n\(config.payload.serialized)\n"
        }.joined()
    }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    @Test(arguments: [
        ("dimmer", [dimmer]), ("powernode", sockets), ("switch", [binarySwitch]), ("unassigned", [unassigned]),
        ("tv", [tv]), ("bridge", []), ("sensors", [multiSensor, doorSensor]), ("other_sensors", otherSensors),
        ("cover", [shutter]), ("lock", [lock]), ("thermostat", [thermostat]), ("buttons", [wallmote]),
    ])
    func goldenConfigs(kind: String, devices: [BridgeInventory.Device]) throws {
        var text = Self.golden(devices)
        if devices.isEmpty {
            text = Self.configs([]).map { "\($0.topic(prefix: "homeassistant"))\n\($0.payload.serialized)\n" }.joined()
        }
        let file = Self.directory.appendingPathComponent("\(kind).txt")
        let expected = try? String(contentsOf: file, encoding: .utf8)
        // A run that rewrites a golden file never passes (so a CI with the variable set cannot go green on it).
        if ProcessInfo.processInfo.environment["THUIS_UPDATE_GOLDEN"] == "1", text != expected {
            try text.write(to: file, atomically: true, encoding: .utf8)
            Issue.record("golden \(kind).txt rewritten: review the change, then run again without THUIS_UPDATE_GOLDEN")
            return
        }
        #expect(text == expected, "golden \(kind).txt differs; THUIS_UPDATE_GOLDEN=1 rewrites it")
    }

    /// Every config payload is a JSON object Home Assistant can read back, with a unique id where it has one.
    @Test func everyConfigIsValidJSONAndUniqueIDsAreUnique() throws {
        let all = Self.configs(
            [
                Self.dimmer, Self.binarySwitch, Self.unassigned, Self.tv, Self.multiSensor, Self.doorSensor,
                Self.shutter,
                Self.wallmote,
            ] + Self.sockets + Self.otherSensors)
        var ids = Set<String>()
        for config in all {
            let parsed = try JSONValue.parse(Array(config.payload.serialized.utf8))
            #expect(parsed == config.payload)
            if case .string(let id)? = config.payload["unique_id"] {
                #expect(id == config.objectID)
                #expect(ids.insert(id).inserted, "duplicate unique_id \(id)")
            } else if config.component != "device_automation" {  // Home Assistant's device triggers take none
                Issue.record("a config without a unique_id: \(config.payload.serialized)")
            }
        }
        #expect(Set(all.map { $0.topic(prefix: "homeassistant") }).count == all.count)
    }

    /// Identities come from the hardware: a renamed device keeps its topics and unique ids, only names and the
    /// topics it points at change; an unassigned node that gets a name keeps its identity too.
    @Test func aRenameChangesNamesAndTopicsNotIdentities() {
        let before = Self.configs([Self.dimmer])
        let renamed = Self.configs([Self.zwave("kitchen", "spots", node: 2, kind: .dimmer, metered: true)])
        #expect(before.map(\.objectID) == renamed.map(\.objectID))
        #expect(before.map { $0.topic(prefix: "homeassistant") } == renamed.map { $0.topic(prefix: "homeassistant") })
        let light = renamed.first { $0.component == "light" }
        #expect(light?.payload["command_topic"] == "Thuis/device/kitchen/spots/set")
        #expect(light?.payload["device"]?["name"] == "Kitchen spots")

        let named = Self.configs([Self.zwave("hall", "lamp", node: 10, kind: .binarySwitch, metered: false)])
        let unnamed = Self.configs([Self.unassigned])
        #expect(named.map(\.objectID) == unnamed.map(\.objectID))
    }

    /// Two bridges never produce the same topic or unique id: CEC and the bridge live in the bridge's
    /// namespace, Z-Wave in its network's.
    @Test func twoBridgesNeverCollide() {
        let living = Self.configs([Self.tv, Self.dimmer])
        let attic = DiscoveryMapping.configs(
            for: BridgeInventory(
                identity: BridgeIdentity(name: "attic"), devices: [Self.tv, Self.dimmer],
                networks: [.zwave: "0badcafe"]))
        let topics = Set(living.map { $0.topic(prefix: "homeassistant") })
        #expect(attic.allSatisfy { !topics.contains($0.topic(prefix: "homeassistant")) })
    }

    /// Without the Z-Wave home id, no Z-Wave config (its identity is not known yet).
    /// Scene triggers come from the node's product (`DeviceProfile`): an FGD212 gets its ten, a dimmer whose identity
    /// shows another product gets none (the FGD212's scene ids would mean nothing on it).
    @Test func sceneTriggersAreTheProductsButtons() {
        func triggers(_ facts: [String: String]) -> [String] {
            let device = BridgeInventory.Device(descriptor: Self.dimmer.descriptor, facts: facts)
            return Self.configs([device]).filter { $0.component == "device_automation" }.map(\.objectID)
        }
        let fgd212 = ["manufacturer_id": "0x010f", "product_type": "0x0102", "product_id": "0x1000"]
        #expect(triggers(fgd212).count == 10)
        #expect(triggers(fgd212).contains("thuis_zwave_c0ffee01_2_scene_26"))
        #expect(triggers(["manufacturer_id": "0x0086", "product_type": "0x0003", "product_id": "0x0063"]).isEmpty)
        // Before the node's identity is read, a dimmer is the one the bridge knows.
        #expect(triggers([:]).count == 10)
    }

    /// The config of `uniqueID` among `configs`.
    static func config(_ configs: [DiscoveryConfig], _ role: String) -> DiscoveryConfig? {
        configs.first { $0.objectID == "thuis_zwave_c0ffee01_\(role)" }
    }

    /// A sensor node: one entity per sensor, on the sensor's topic, with Home Assistant's device class and the
    /// inventory's unit; binary sensors with the bridge's payloads; battery and tamper diagnostic; no main entity.
    @Test func everySensorIsAnEntityWithItsClassUnitAndPayloads() throws {
        let configs = Self.configs([Self.multiSensor, Self.doorSensor]).filter { $0.nodeID == "thuis_zwave_c0ffee01" }
        let expected: [(role: String, component: String, name: String, deviceClass: String, unit: String?)] = [
            ("5_temperature", "sensor", "Temperature", "temperature", "°C"),
            ("5_humidity", "sensor", "Humidity", "humidity", "%"),
            ("5_luminance", "sensor", "Luminance", "illuminance", "lx"),
            ("5_battery", "sensor", "Battery", "battery", "%"),
            ("5_motion", "binary_sensor", "Motion", "motion", nil),
            ("5_tamper", "binary_sensor", "Tamper", "tamper", nil),
            ("6_contact", "binary_sensor", "Contact", "door", nil),
            ("6_temperature", "sensor", "Temperature", "temperature", "°C"),
        ]
        for entity in expected {
            let config = try #require(Self.config(configs, entity.role), "no \(entity.role)")
            let payload = config.payload
            #expect(config.component == entity.component, "\(entity.role)")
            #expect(payload["name"] == .string(entity.name), "\(entity.role)")
            #expect(payload["device_class"] == .string(entity.deviceClass), "\(entity.role)")
            #expect(payload["unit_of_measurement"] == entity.unit.map { .string($0) }, "\(entity.role)")
            #expect(payload["state_class"] == (entity.unit == nil ? nil : "measurement"), "\(entity.role)")
        }
        // The topics and payloads are the MQTT contract's.
        let hall = "Thuis/device/hall/motion"
        #expect(Self.config(configs, "5_temperature")?.payload["state_topic"] == .string(hall + "/temperature"))
        let motion = Self.config(configs, "5_motion")?.payload
        #expect(motion?["state_topic"] == .string(hall + "/motion"))
        #expect(motion?["payload_on"] == "on" && motion?["payload_off"] == "off")
        let contact = Self.config(configs, "6_contact")?.payload
        #expect(contact?["state_topic"] == "Thuis/device/unassigned/node6/contact")
        #expect(contact?["payload_on"] == "open" && contact?["payload_off"] == "closed")
        // Ultraviolet: Home Assistant has no device class for it; a number in `UV index`.
        let uv = try #require(Self.config(configs, "5_ultraviolet")?.payload)
        #expect(
            uv["device_class"] == nil && uv["unit_of_measurement"] == "UV index" && uv["state_class"] == "measurement")
        // The battery and the tamper switch are the device's diagnostics; the readings are not.
        let diagnostic = configs.filter { $0.payload["entity_category"] == "diagnostic" }.map(\.objectID)
        #expect(
            Set(diagnostic)
                == Set(["5_battery", "5_tamper", "6_battery", "6_tamper"].map { "thuis_zwave_c0ffee01_\($0)" }))
        // A sensor device has nothing but its sensors; its availability is the device's, as every entity's.
        #expect(configs.count == 11)
        #expect(
            Self.config(configs, "5_motion")?.payload["availability"]
                == [
                    .object([("topic", "Thuis/bridge/living/state")]),
                    .object([
                        ("topic", .string(hall + "/availability")),
                        ("value_template", "{{ 'offline' if value == 'offline' else 'online' }}"),
                    ]),
                ])
        #expect(
            Self.config(configs, "6_contact")?.payload["device"]?["name"]
                == "Z-Wave node 6 (FGDW002 Door Opening Sensor 2)")
    }

    /// Meters grow (`total_increasing`, for the Energy dashboard), with their own classes; smoke and water (a leak,
    /// Home Assistant's moisture) are binary sensors.
    @Test func metersAndAlarmsHaveTheirClasses() throws {
        let configs = Self.configs(Self.otherSensors)
        let expected: [(role: String, deviceClass: String, stateClass: String?, unit: String?)] = [
            ("7_1_pressure", "pressure", "measurement", "kPa"),
            ("7_1_co2", "carbon_dioxide", "measurement", "ppm"),
            ("7_1_gas_volume", "gas", "total_increasing", "m³"),
            ("7_1_water_volume", "water", "total_increasing", "gal"),
            ("7_1_heating_energy", "energy", "total_increasing", "kWh"),
            ("7_1_cooling_energy", "energy", "total_increasing", "kWh"),
            ("7_1_smoke", "smoke", nil, nil), ("7_1_water", "moisture", nil, nil),
        ]
        for entity in expected {
            let payload = try #require(Self.config(configs, entity.role)?.payload, "no \(entity.role)")
            #expect(payload["device_class"] == .string(entity.deviceClass), "\(entity.role)")
            #expect(payload["state_class"] == entity.stateClass.map { .string($0) }, "\(entity.role)")
            #expect(payload["unit_of_measurement"] == entity.unit.map { .string($0) }, "\(entity.role)")
        }
        // On a node of several devices, a sensor is named after its own device.
        #expect(Self.config(configs, "7_1_co2")?.payload["name"] == "Utility meter co2")
    }

    /// A unit Home Assistant does not take for the sensor's device class (illuminance in %, absolute humidity, no
    /// unit at all) leaves the class out: the reading stays a number with the device's unit and its statistics.
    @Test func aUnitHomeAssistantRejectsLeavesTheDeviceClassOut() throws {
        let configs = Self.configs(Self.otherSensors)
        for (role, unit) in [("7_2_luminance", "%"), ("7_2_humidity", "g/m³"), ("7_2_temperature", "")] {
            let payload = try #require(Self.config(configs, role)?.payload, "no \(role)")
            #expect(payload["device_class"] == nil, "\(role)")
            #expect(payload["unit_of_measurement"] == (unit.isEmpty ? nil : .string(unit)), "\(role)")
            #expect(payload["state_class"] == "measurement", "\(role)")
        }
        // The socket's own entities are there beside its sensors.
        #expect(Self.config(configs, "7_2_switch") != nil && Self.config(configs, "7_2_power") != nil)
    }

    /// A sensor's identity is the node's and the sensor's: renaming the device (or naming an unassigned one) keeps
    /// its unique ids and config topics.
    @Test func renamingASensorDeviceKeepsItsEntities() {
        let before = Self.configs([Self.doorSensor])
        let named = Self.configs([
            Self.zwave(
                "hall", "front_door", node: 6, kind: .sensor, metered: false,
                sensors: Self.doorSensor.descriptor.sensors)
        ])
        #expect(before.map(\.objectID) == named.map(\.objectID))
        #expect(before.map { $0.topic(prefix: "homeassistant") } == named.map { $0.topic(prefix: "homeassistant") })
        #expect(Self.config(named, "6_contact")?.payload["state_topic"] == "Thuis/device/hall/front_door/contact")
    }

    @Test func zwaveWaitsForTheHomeID() {
        let configs = DiscoveryMapping.configs(for: BridgeInventory(identity: Self.identity, devices: [Self.dimmer]))
        #expect(configs.map(\.component) == ["binary_sensor"])
    }
}
