import BridgeCore

/// A thermostat as HomeKit's Thermostat service shows it: its mode as the heating/cooling states (off 0, heat 1,
/// cool 2, auto 3; a preset such as eco or boost heats), its setpoint in °C (HomeKit's unit; a device in °F is
/// converted both ways).
enum ThermostatStates {
    /// The modes TargetHeatingCoolingState has a value for.
    static let targetModes: [(mode: ThermostatMode, value: Int)] = [(.off, 0), (.heat, 1), (.cool, 2), (.auto, 3)]

    /// TargetHeatingCoolingState of a `mode` payload: 0 off, 2 cool, 3 auto, 1 for every mode that heats.
    static func target(mode payload: String?) -> Int {
        guard let mode = payload.flatMap(ThermostatMode.init(rawValue:)) else { return 0 }
        return targetModes.first { $0.mode == mode }?.value ?? (mode.heats ? 1 : 0)
    }

    /// CurrentHeatingCoolingState: from the operating state when the device reports one (heating 1, cooling 2, else
    /// 0), else from the mode (it heats: 1).
    static func current(mode payload: String?, operatingState: String?) -> Int {
        if let operatingState {
            return operatingState.contains("heat") ? 1 : operatingState.contains("cool") ? 2 : 0
        }
        let target = target(mode: payload)
        return target == 3 ? 1 : target
    }

    /// The mode a TargetHeatingCoolingState write asks for.
    static func mode(target value: Int) -> ThermostatMode? {
        targetModes.first { $0.value == value }?.mode
    }

    /// A temperature in `unit` as °C, in tenths.
    static func celsius(_ value: Double, unit: String) -> Double {
        ((unit == "°F" ? (value - 32) * 5 / 9 : value) * 10).rounded() / 10
    }

    /// A temperature in °C as the device's `unit` takes it, in tenths.
    static func deviceValue(celsius value: Double, unit: String) -> Double {
        ((unit == "°F" ? value * 9 / 5 + 32 : value) * 10).rounded() / 10
    }

    /// The setpoint's range in °C.
    static func celsiusRange(_ traits: ThermostatTraits) -> ClosedRange<Double> {
        let range = traits.range
        return celsius(
            range.lowerBound, unit: traits.temperatureUnit)...celsius(
                range.upperBound, unit: traits.temperatureUnit)
    }

    /// TargetTemperature of a `setpoint` payload: °C within the range HomeKit was given (its minimum before the
    /// first report).
    static func targetTemperature(setpoint payload: String?, traits: ThermostatTraits) -> Double {
        let range = celsiusRange(traits)
        guard let value = payload.flatMap(Double.init), value.isFinite else { return range.lowerBound }
        return min(max(celsius(value, unit: traits.temperatureUnit), range.lowerBound), range.upperBound)
    }
}
