/// A typed command for one device, parsed from an MQTT `/set` payload.
public enum DeviceCommand: Sendable, Equatable, CustomStringConvertible {
    /// Switch on. On a dimmer: restore its last non-zero level.
    case on
    /// Switch off (a dimmer goes to level 0, a TV to standby).
    case off
    /// Invert the current on/off state.
    case toggle
    /// Dimmer level, `0`..`99`; a cover's position as the level to set (`open` is `99`, `close` `0`).
    case level(Int)
    /// Stop a moving cover where it is.
    case stop
    /// Lock (`true`) or unlock (`false`) a door lock.
    case setLocked(Bool)
    /// Re-read the device from the hardware and republish (`/get`).
    case refresh
    /// Volume: one step up or down, or an absolute level `0`..`100`.
    case volume(VolumeCommand)
    /// Mute: on, off or toggle.
    case mute(SwitchCommand)
    /// Switch the TV to an input, given as the physical address it resolved to.
    case input(name: String?, address: String)
    /// A thermostat's heating setpoint, in its unit, within its range.
    case setpoint(Double)
    /// A thermostat's mode, one the device supports.
    case mode(ThermostatMode)

    public var description: String {
        switch self {
        case .on: "on"
        case .off: "off"
        case .toggle: "toggle"
        case .level(let level): "level \(level)"
        case .stop: "stop"
        case .setLocked(let locked): locked ? "lock" : "unlock"
        case .refresh: "refresh"
        case .volume(let volume): "volume \(volume)"
        case .mute(let mute): "mute \(mute)"
        case .input(let name, let address): "input \(name ?? address)"
        case .setpoint(let value): "setpoint \(StatePublisher.number(value))"
        case .mode(let mode): "mode \(mode.rawValue)"
        }
    }

    /// Commands of the same channel replace each other in the per-device queue (a newer level replaces
    /// an older one, a cover's `stop` a waiting `open`; a volume command does not replace a power command).
    public var channel: CommandChannel {
        switch self {
        case .on, .off, .toggle, .level, .stop, .setLocked: .power
        case .refresh: .refresh
        case .volume: .volume
        case .mute: .mute
        case .input: .input
        case .setpoint: .setpoint
        case .mode: .mode
        }
    }
}

/// The independent parts of a device that commands address; see `DeviceCommand.channel`.
public enum CommandChannel: Sendable, Hashable, CaseIterable {
    case power, refresh, volume, mute, input, setpoint, mode
}

/// `on`, `off` or `toggle`.
public enum SwitchCommand: String, Sendable, Equatable, CustomStringConvertible {
    case on, off, toggle
    public var description: String { rawValue }
}

/// A volume command.
public enum VolumeCommand: Sendable, Equatable, CustomStringConvertible {
    case up, down
    case level(Int)
    public var description: String {
        switch self {
        case .up: "up"
        case .down: "down"
        case .level(let level): "\(level)"
        }
    }
}
