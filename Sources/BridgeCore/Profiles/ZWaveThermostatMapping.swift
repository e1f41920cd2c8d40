/// The generic mapping of Z-Wave thermostats (kind ``DeviceKind/thermostat``), for every product: a node with
/// Thermostat Setpoint (0x43) or Thermostat Mode (0x40) is a thermostat, whatever else it has (a radiator valve's
/// Switch Multilevel, its valve opening, makes no dimmer of it). OpenZWave 1.6's values (`ValueIDIndexesDefines.h`):
/// a setpoint per type at index = type (1 heating), its v3 capabilities at 100 + type (minimum) and 200 + type
/// (maximum); the mode and the operating state are lists at index 0 whose item values are the Z-Wave numbers.
public enum ZWaveThermostatMapping {
    public static let thermostatMode: UInt8 = 0x40
    public static let thermostatOperatingState: UInt8 = 0x42
    public static let thermostatSetpoint: UInt8 = 0x43
    /// The command classes that make a node a thermostat.
    public static let commandClasses: Set<UInt8> = [thermostatMode, thermostatSetpoint]
    /// OpenZWave's index of the heating setpoint (type 1), and of its minimum and maximum (v3 Capabilities Report).
    public static let heatingIndex: UInt16 = 1
    public static let heatingMinimumIndex: UInt16 = 101
    public static let heatingMaximumIndex: UInt16 = 201

    /// Thermostat Mode numbers by word: 0 Off, 1 Heat, 2 Cool, 3 Auto, 11 Energy Save Heat (`eco`), 13 Away, 15 Full
    /// Power (`boost`), 31 Manufacturer Specific. Other modes (fan only, dry air, resume...) have no word and are
    /// neither published nor offered.
    public static let modeNumbers: [ThermostatMode: Int] = [
        .off: 0, .heat: 1, .cool: 2, .auto: 3, .eco: 11, .away: 13, .boost: 15, .manufacturerSpecific: 31,
    ]

    /// The mode a Z-Wave mode number stands for, nil for one without a word.
    public static func mode(number: Int) -> ThermostatMode? {
        modeNumbers.first { $0.value == number }?.key
    }

    /// Thermostat Operating State numbers as published on `<device>/operating_state`.
    public static let operatingStates: [Int: String] = [
        0: "idle", 1: "heating", 2: "cooling", 3: "fan_only", 4: "pending_heat", 5: "pending_cool",
        6: "vent_economizer", 7: "aux_heating", 8: "heating", 9: "cooling", 10: "aux_heating", 11: "heating",
    ]

    /// The kind a value of command class `commandClass` at `index` makes of its node's device, nil when it makes none:
    /// a mode (index 0) or a setpoint (a type, below the capabilities' indexes) makes a thermostat.
    public static func isThermostatValue(commandClass: UInt8, index: UInt16) -> Bool {
        switch commandClass {
        case thermostatMode: index == 0
        case thermostatSetpoint: index > 0 && index < 100
        default: false
        }
    }

    /// What a thermostat value tells of its device: the heating setpoint its unit and precision (and the range its
    /// product's configuration declares, `declared`, both 0 when none), the capabilities its range, the mode list
    /// the supported modes (`listItems`, the list's item values), the operating state that it has one.
    public static func traits(
        commandClass: UInt8, index: UInt16, units: String, precision: Int?, value: Double?, listItems: [Int] = [],
        declared: (minimum: Int, maximum: Int) = (0, 0)
    ) -> ThermostatTraits? {
        switch (commandClass, index) {
        case (thermostatSetpoint, heatingIndex):
            let ranged = declared.minimum < declared.maximum
            return ThermostatTraits(
                minimum: ranged ? Double(declared.minimum) : nil, maximum: ranged ? Double(declared.maximum) : nil,
                unit: units.isEmpty ? nil : ZWaveSensorMapping.unit(units), precision: precision)
        case (thermostatSetpoint, heatingMinimumIndex):
            return ThermostatTraits(minimum: value)
        case (thermostatSetpoint, heatingMaximumIndex):
            return ThermostatTraits(maximum: value)
        case (thermostatMode, 0):
            let modes = Set(listItems.compactMap { mode(number: $0) })
            return ThermostatTraits(modes: ThermostatMode.allCases.filter(modes.contains))
        case (thermostatOperatingState, 0):
            return ThermostatTraits(operatingState: true)
        default:
            return nil
        }
    }

    /// The state update a report of a thermostat value gives: the heating setpoint, the mode, the operating state.
    public static func update(commandClass: UInt8, index: UInt16, reading: ZWaveSensorMapping.Reading?)
        -> HardwareEvent.StateUpdate?
    {
        switch (commandClass, index, reading) {
        case (thermostatSetpoint, heatingIndex, .decimal(let value, let precision)?):
            return .setpoint(DeviceState.Measurement(value: value, precision: precision))
        case (thermostatMode, 0, .listItem(let number)?):
            return mode(number: number).map { .mode($0) }
        case (thermostatOperatingState, 0, .listItem(let number)?):
            return operatingStates[number].map { .operatingState($0) }
        default:
            return nil
        }
    }

    /// A setpoint as the text OpenZWave sets (and sends) it with: in the device's precision (`21.5`, `21`), which a
    /// float would not keep (21.3 as a float is `21.299999`), with one more decimal where OpenZWave would send it
    /// wrong: it sizes a positive value by its unsigned bits, so 128-255 goes in one byte (and 32768-65535 in two),
    /// which the device reads as a signed number (Z-Wave's values are signed): 21.5 °C as 215 would arrive as
    /// -4.1 °C; `21.50` (2150, two bytes) arrives as 21.5.
    public static func setpointText(_ value: Double, precision: Int) -> String {
        var places = max(0, min(precision, 6))
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        while places < 6 {
            let scaled = abs((value * scale).rounded())
            guard (128...255).contains(scaled) || (32_768...65_535).contains(scaled) else { break }
            places += 1
            scale *= 10
        }
        return StatePublisher.decimal(DeviceState.Measurement(value: value, precision: places))
    }
}
