internal import BridgeCore

/// A thermostat as a Home Assistant `climate` entity on the bridge's topics: its mode (`<device>/mode`) as the HVAC
/// mode (`off`, `heat`; `cool` and `auto` for a device that has them), energy-save heating, full power and away as
/// the presets `eco`, `boost` and `away` (their HVAC mode is heat), the heating setpoint (`<device>/setpoint`) as the
/// target temperature within the device's range and in 0.5° steps, the device's temperature sensor as the current
/// temperature, and its operating state as the HVAC action.
extension DiscoveryMapping {
    /// The Thermostat modes Home Assistant has an HVAC mode of the same name for; the presets.
    static let hvacModes: [ThermostatMode] = [.off, .heat, .cool, .auto]
    static let presetModes: [ThermostatMode] = [.eco, .boost, .away]

    /// The climate entity's options for `descriptor` (a thermostat) on `topics`.
    static func climate(_ descriptor: DeviceDescriptor, _ topics: TopicScheme.Device) -> [(String, JSONValue)] {
        let traits = descriptor.thermostat ?? ThermostatTraits()
        let offered = traits.offeredModes
        let modes = hvacModes.filter(offered.contains)
        let presets = presetModes.filter(offered.contains)
        // A mode Home Assistant has no HVAC mode for (a preset, the manufacturer's) heats.
        let fallback = modes.first { $0.heats } ?? modes.first ?? .heat
        let range = traits.range
        var fields: [(String, JSONValue)] = [
            ("mode_state_topic", .string(topics.mode)),
            ("mode_state_template", .string("{{ value if value in \(list(modes)) else '\(fallback.rawValue)' }}")),
            ("mode_command_topic", .string(topics.modeSet)), ("modes", .array(modes.map { .string($0.rawValue) })),
        ]
        if !presets.isEmpty {
            fields += [
                ("preset_mode_state_topic", .string(topics.mode)),
                ("preset_mode_value_template", .string("{{ value if value in \(list(presets)) else 'none' }}")),
                ("preset_mode_command_topic", .string(topics.modeSet)),
                // Home Assistant's `none` (no preset) is heating.
                ("preset_mode_command_template", .string("{{ '\(fallback.rawValue)' if value == 'none' else value }}")),
                ("preset_modes", .array(presets.map { .string($0.rawValue) })),
            ]
        }
        fields += [
            ("temperature_state_topic", .string(topics.setpoint)),
            ("temperature_command_topic", .string(topics.setpointSet)),
        ]
        if descriptor.sensors[.temperature] != nil {
            fields.append(("current_temperature_topic", .string(topics.sensor(.temperature))))
        }
        if traits.operatingState {
            fields += [
                ("action_topic", .string(topics.operatingState)),
                (
                    "action_template",
                    .string(
                        "{% set actions = {'idle': 'idle', 'heating': 'heating', 'aux_heating': 'heating', "
                            + "'pending_heat': 'preheating', 'cooling': 'cooling', 'pending_cool': 'cooling', "
                            + "'fan_only': 'fan', 'vent_economizer': 'fan'} %}{{ actions.get(value, 'idle') }}")
                ),
            ]
        }
        fields += [
            ("min_temp", .double(range.lowerBound)), ("max_temp", .double(range.upperBound)),
            ("temp_step", .double(traits.step)), ("precision", .double(traits.step < 1 ? 0.1 : 1)),
            ("temperature_unit", .string(traits.temperatureUnit == "°F" ? "F" : "C")),
        ]
        return fields
    }

    /// `['off', 'heat']`.
    private static func list(_ modes: [ThermostatMode]) -> String {
        "[" + modes.map { "'\($0.rawValue)'" }.joined(separator: ", ") + "]"
    }
}
