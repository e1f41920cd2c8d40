/// A thermostat's commands: `<device>/set` and `<device>/mode/set` take a mode, `<device>/setpoint/set` a number.
extension PayloadParser {
    /// What a thermostat's `/set` and `/mode/set` take, as the reason for a payload they do not.
    static func thermostatCommands(_ device: DeviceDescriptor) -> String {
        let modes = (device.thermostat ?? ThermostatTraits()).offeredModes.map(\.rawValue)
        return "a thermostat takes a mode (\(modes.joined(separator: ", ")); on is heat) on /set or /mode/set, "
            + "and a setpoint on /setpoint/set"
    }

    /// `<device>/set` or `<device>/mode/set` of `device`: a mode it supports, or `on` (heat).
    static func thermostatMode(_ payload: [UInt8], device: DeviceDescriptor) throws(PayloadError) -> DeviceCommand {
        guard device.kind == .thermostat else {
            throw PayloadError("a \(device.kind.rawValue) has no mode; only a thermostat")
        }
        let command = try thermostatMode(try text(payload), traits: device.thermostat)
        if let refusal = thermostatRefusal(command, for: device) { throw PayloadError(refusal.reason) }
        return command
    }

    /// A mode word (`word` decoded already), or `on` (heat); `traits` gives the modes the reason names.
    static func thermostatMode(_ word: String, traits: ThermostatTraits?) throws(PayloadError) -> DeviceCommand {
        if word == "on" { return .mode(.heat) }
        guard let mode = ThermostatMode(rawValue: word) else {
            let modes = (traits ?? ThermostatTraits()).offeredModes.map(\.rawValue).joined(separator: ", ")
            throw PayloadError("unknown mode \"\(printable(word))\"; this thermostat takes \(modes) (on is heat)")
        }
        return .mode(mode)
    }

    /// `<device>/setpoint/set` of `device`: a number within its range (`21.5`; a decimal comma is no number).
    static func setpoint(_ payload: [UInt8], device: DeviceDescriptor) throws(PayloadError) -> DeviceCommand {
        guard device.kind == .thermostat else {
            throw PayloadError("a \(device.kind.rawValue) has no setpoint; only a thermostat")
        }
        let word = try text(payload)
        let traits = device.thermostat ?? ThermostatTraits()
        guard let value = Double(word), value.isFinite else {
            throw PayloadError(
                "setpoint \"\(printable(word))\" is not a number; this thermostat takes \(describe(traits))")
        }
        let command = DeviceCommand.setpoint(value)
        if let refusal = thermostatRefusal(command, for: device) { throw PayloadError(refusal.reason) }
        return command
    }

    /// Why a setpoint or mode cannot go to `device`, nil when it can: a thermostat's only, a setpoint within its
    /// range, a mode it supports.
    static func thermostatRefusal(_ command: DeviceCommand, for device: DeviceDescriptor) -> CommandRefusal? {
        guard device.kind == .thermostat else {
            let what = if case .mode = command { "mode" } else { "setpoint" }
            return CommandRefusal("a \(device.kind.rawValue) has no \(what); only a thermostat")
        }
        let traits = device.thermostat ?? ThermostatTraits()
        switch command {
        case .setpoint(let value):
            guard value.isFinite, traits.range.contains(value) else {
                let shown = value.isFinite ? StatePublisher.number(value) : "\(value)"
                return CommandRefusal("setpoint \(shown) is out of range; this thermostat takes \(describe(traits))")
            }
            return nil
        case .mode(let mode):
            let offered = traits.offeredModes
            guard offered.contains(mode) else {
                let modes = offered.map(\.rawValue).joined(separator: ", ")
                return CommandRefusal("this thermostat has no mode \(mode.rawValue); it takes \(modes) (on is heat)")
            }
            return nil
        default:
            return nil
        }
    }

    /// `8..28 °C`.
    static func describe(_ traits: ThermostatTraits) -> String {
        let range = traits.range
        return "\(StatePublisher.number(range.lowerBound))..\(StatePublisher.number(range.upperBound)) "
            + traits.temperatureUnit
    }
}
