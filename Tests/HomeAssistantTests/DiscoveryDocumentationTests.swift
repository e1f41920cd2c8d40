import BridgeCore
import HomeAssistant
import Testing

/// Every discovery config checked against what Home Assistant's MQTT integration documents (2025.4, the version the
/// integration tests run): the options each platform reads, the ones it requires, the values an option takes, and
/// the units of each sensor device class. The golden files say the mapping did not change; this says what it
/// produces is what Home Assistant reads, written from the documentation, not from the mapping's own output.
@Suite struct DiscoveryDocumentationTests {
    /// Options every MQTT entity platform takes (the documentation's shared list).
    static let entityOptions: Set<String> = [
        "availability", "availability_mode", "availability_template", "availability_topic", "device",
        "enabled_by_default", "encoding", "entity_category", "entity_picture", "icon", "json_attributes_template",
        "json_attributes_topic", "name", "object_id", "origin", "payload_available", "payload_not_available",
        "platform",
        "qos", "unique_id",
    ]

    /// Each platform's own options, and those it requires (MQTT integration: light (default schema), switch,
    /// sensor, binary sensor, number, select, button, event, device trigger).
    static let platforms: [String: (options: Set<String>, required: Set<String>)] = [
        "light": (
            [
                "command_topic", "state_topic", "state_value_template", "payload_on", "payload_off",
                "brightness_command_topic", "brightness_command_template", "brightness_scale",
                "brightness_state_topic", "brightness_value_template", "on_command_type", "optimistic", "retain",
                "schema",
            ], ["command_topic"]
        ),
        "switch": (
            [
                "command_topic", "command_template", "state_topic", "state_on", "state_off", "payload_on",
                "payload_off", "value_template", "device_class", "optimistic", "retain",
            ], ["command_topic"]
        ),
        "sensor": (
            [
                "state_topic", "device_class", "state_class", "unit_of_measurement", "value_template",
                "expire_after", "force_update", "last_reset_value_template", "suggested_display_precision",
                "options",
            ], ["state_topic"]
        ),
        "binary_sensor": (
            [
                "state_topic", "device_class", "payload_on", "payload_off", "value_template", "expire_after",
                "force_update", "off_delay",
            ], ["state_topic"]
        ),
        "number": (
            [
                "command_topic", "command_template", "state_topic", "value_template", "min", "max", "step", "mode",
                "unit_of_measurement", "device_class", "optimistic", "retain", "payload_reset",
            ], ["command_topic"]
        ),
        "select": (
            ["command_topic", "command_template", "state_topic", "value_template", "options", "optimistic", "retain"],
            ["command_topic", "options"]
        ),
        "button": (
            ["command_topic", "command_template", "payload_press", "device_class", "retain"], ["command_topic"]
        ),
        "event": (["state_topic", "event_types", "value_template", "device_class"], ["state_topic", "event_types"]),
    ]

    /// A device trigger's options: it is no entity (no unique id, no availability).
    static let triggerOptions: Set<String> = [
        "automation_type", "payload", "qos", "topic", "type", "subtype", "device", "value_template", "platform",
        "origin",
    ]
    /// The trigger types and subtypes Home Assistant's frontend names (others work, but show as raw text).
    static let triggerTypes: Set<String> = [
        "button_short_press", "button_short_release", "button_long_press", "button_long_release",
        "button_double_press", "button_triple_press", "button_quadruple_press", "button_quintuple_press",
    ]
    static let triggerSubtypes: Set<String> = [
        "turn_on", "turn_off", "button_1", "button_2", "button_3", "button_4", "button_5", "button_6",
    ]

    /// Units Home Assistant accepts for the sensor device classes the bridge uses, and the state classes each allows
    /// (the sensor documentation's table of device classes).
    static let sensorUnits: [String: Set<String>] = [
        "power": ["mW", "W", "kW", "MW", "GW", "TW", "BTU/h"],
        "energy": ["J", "kJ", "MJ", "GJ", "mWh", "Wh", "kWh", "MWh", "GWh", "TWh", "cal", "kcal", "Mcal", "Gcal"],
        "temperature": ["°C", "°F", "K"],
        "humidity": ["%"],
        "illuminance": ["lx"],
        "battery": ["%"],
        "pressure": ["cbar", "bar", "hPa", "mmHg", "inHg", "kPa", "mbar", "Pa", "psi"],
        "carbon_dioxide": ["ppm"],
        "gas": ["m³", "ft³", "CCF"],
        "water": ["L", "gal", "m³", "ft³", "CCF"],
    ]
    static let stateClasses: [String: Set<String>] = [
        "power": ["measurement"], "energy": ["total", "total_increasing"], "temperature": ["measurement"],
        "humidity": ["measurement"], "illuminance": ["measurement"], "battery": ["measurement"],
        "pressure": ["measurement"], "carbon_dioxide": ["measurement"],
        "gas": ["total", "total_increasing"], "water": ["total", "total_increasing"],
    ]
    static let deviceClasses: [String: Set<String>] = [
        "switch": ["outlet", "switch"],
        "binary_sensor": [
            "battery", "battery_charging", "carbon_monoxide", "cold", "connectivity", "door", "garage_door", "gas",
            "heat", "light", "lock", "moisture", "motion", "moving", "occupancy", "opening", "plug", "power",
            "presence", "problem", "running", "safety", "smoke", "sound", "tamper", "update", "vibration", "window",
        ],
        "button": ["identify", "restart", "update"],
        "event": ["button", "doorbell", "motion"],
    ]
    static let deviceOptions: Set<String> = [
        "identifiers", "connections", "name", "manufacturer", "model", "model_id", "via_device", "sw_version",
        "hw_version", "suggested_area", "configuration_url", "serial_number",
    ]

    static var everyConfig: [DiscoveryConfig] {
        let mapping = DiscoveryMappingTests.self
        return mapping.configs(
            [
                mapping.dimmer, mapping.binarySwitch, mapping.unassigned, mapping.tv, mapping.multiSensor,
                mapping.doorSensor,
            ]
                + mapping.sockets + mapping.otherSensors)
    }

    static func members(_ value: JSONValue?) -> [(String, JSONValue)] {
        if case .object(let members)? = value { return members }
        return []
    }

    @Test("every option is one the platform reads, and every required option is there")
    func optionsAreTheDocumentedOnes() {
        var platformsSeen: Set<String> = []
        for config in Self.everyConfig {
            let keys = Set(Self.members(config.payload).map(\.0))
            platformsSeen.insert(config.component)
            if config.component == "device_automation" {
                #expect(
                    keys.isSubset(of: Self.triggerOptions),
                    "\(config.objectID): \(keys.subtracting(Self.triggerOptions))")
                #expect(
                    keys.isSuperset(of: ["automation_type", "topic", "type", "subtype", "device"]), "\(config.objectID)"
                )
                continue
            }
            guard let platform = Self.platforms[config.component] else {
                Issue.record("\(config.component) is not a platform this test knows: add its documented options")
                continue
            }
            let allowed = platform.options.union(Self.entityOptions)
            #expect(keys.isSubset(of: allowed), "\(config.objectID): \(keys.subtracting(allowed).sorted())")
            #expect(
                keys.isSuperset(of: platform.required),
                "\(config.objectID) lacks \(platform.required.subtracting(keys))")
            #expect(keys.contains("unique_id"), "\(config.objectID): an entity without a unique id cannot be renamed")
        }
        #expect(platformsSeen.isSuperset(of: ["light", "switch", "sensor", "binary_sensor", "device_automation"]))
    }

    @Test("values: device classes, units, state classes, availability mode, qos, brightness scale, triggers")
    func valuesAreTheDocumentedOnes() {
        for config in Self.everyConfig {
            let payload = config.payload
            let id = config.objectID
            if case .string(let mode)? = payload["availability_mode"] {
                #expect(["all", "any", "latest"].contains(mode), "\(id): availability_mode \(mode)")
            }
            if case .int(let qos)? = payload["qos"] { #expect((0...2).contains(qos), "\(id): qos \(qos)") }
            if case .string(let category)? = payload["entity_category"] {
                #expect(["config", "diagnostic"].contains(category), "\(id): entity_category \(category)")
            }
            if case .string(let deviceClass)? = payload["device_class"] {
                if config.component == "sensor" {
                    let units = Self.sensorUnits[deviceClass]
                    #expect(units != nil, "\(id): sensor device class \(deviceClass) not checked here")
                    if case .string(let unit)? = payload["unit_of_measurement"] {
                        #expect(units?.contains(unit) == true, "\(id): \(unit) is not a unit of \(deviceClass)")
                    } else {
                        Issue.record("\(id): a \(deviceClass) sensor without a unit")
                    }
                    if case .string(let stateClass)? = payload["state_class"] {
                        #expect(Self.stateClasses[deviceClass]?.contains(stateClass) == true, "\(id): \(stateClass)")
                    }
                    if deviceClass == "battery" {
                        #expect(payload["entity_category"] == "diagnostic", "\(id): a battery is a diagnostic")
                    }
                } else {
                    #expect(
                        Self.deviceClasses[config.component]?.contains(deviceClass) == true,
                        "\(id): \(deviceClass) is not a device class of \(config.component)")
                }
            }
            if case .int(let scale)? = payload["brightness_scale"] { #expect(scale >= 1, "\(id)") }
            if config.component == "number", case .string(let mode)? = payload["mode"] {
                #expect(["auto", "box", "slider"].contains(mode), "\(id): number mode \(mode)")
            }
            if config.component == "device_automation" {
                #expect(payload["automation_type"] == .string("trigger"), "\(id)")
                if case .string(let type)? = payload["type"] {
                    #expect(Self.triggerTypes.contains(type), "\(id): \(type)")
                }
                if case .string(let subtype)? = payload["subtype"] {
                    #expect(Self.triggerSubtypes.contains(subtype), "\(id): \(subtype)")
                }
            }
            let device = Self.members(payload["device"])
            #expect(!device.isEmpty, "\(id): no device")
            #expect(
                device.contains { $0.0 == "identifiers" || $0.0 == "connections" },
                "\(id): a device without identifiers")
            #expect(Set(device.map(\.0)).isSubset(of: Self.deviceOptions), "\(id): \(device.map(\.0))")
        }
    }
}
