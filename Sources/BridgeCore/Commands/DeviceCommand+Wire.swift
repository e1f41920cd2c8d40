/// A device command's MQTT form, and the one check that a command fits its device, whoever built it (the MQTT
/// parser, a dashboard, HomeKit): `Bridge.submit(_:to:from:)` runs it for every command.
extension DeviceCommand {
    /// The topic and payload that carry this command to the device whose topics are `topics` (MQTT-CONTRACT.md):
    /// what `PayloadParser.command(for:payload:device:)` parses back into the same command.
    public func wire(_ topics: TopicScheme.Device) -> (topic: String, payload: String) {
        switch self {
        case .on: (topics.set, "on")
        case .off: (topics.set, "off")
        case .toggle: (topics.set, "toggle")
        case .level(let level): (topics.set, String(level))
        case .stop: (topics.set, "stop")
        case .setLocked(let locked): (topics.set, locked ? "lock" : "unlock")
        case .refresh: (topics.get, "")
        case .volume(let volume): (topics.volumeSet, volume.description)
        case .mute(let mute): (topics.muteSet, mute.rawValue)
        case .input(let name, let address): (topics.inputSet, name ?? address)
        case .setpoint(let value): (topics.setpointSet, StatePublisher.number(value))
        case .mode(let mode): (topics.modeSet, mode.rawValue)
        }
    }

    /// Why this command cannot go to `device`, nil when it can: a level for a dimmer or cover only (0...99), `stop`
    /// for a cover only, which takes no on, off or toggle; volume, mute and input for a TV only, a volume of 0...100,
    /// an input as a physical address `a.b.c.d`; `lock` and `unlock` for a lock only, which takes nothing else.
    public func refusal(for device: DeviceDescriptor) -> CommandRefusal? {
        switch self {
        case .refresh:
            return nil
        case .setLocked:
            return device.kind == .lock ? nil : CommandRefusal("a \(device.kind.rawValue) has no lock; only a lock")
        case .setpoint, .mode:
            return PayloadParser.thermostatRefusal(self, for: device)
        case .on, .off, .toggle:
            switch device.kind {
            case .cover: return CommandRefusal(PayloadParser.coverCommands)
            case .lock: return CommandRefusal(PayloadParser.lockCommands)
            case .thermostat: return CommandRefusal(PayloadParser.thermostatCommands(device))
            default: return nil
            }
        case .stop:
            return device.kind == .cover ? nil : CommandRefusal("a \(device.kind.rawValue) has no stop; only a cover")
        case .level(let level):
            guard device.kind == .dimmer || device.kind == .cover else {
                if device.kind == .thermostat { return CommandRefusal(PayloadParser.thermostatCommands(device)) }
                return CommandRefusal("a \(device.kind.rawValue) takes on, off or toggle, not a level")
            }
            return (0...99).contains(level)
                ? nil : CommandRefusal("level \(level) is out of range; a \(device.kind.rawValue) takes 0..99")
        case .volume, .mute, .input:
            guard device.kind == .tv else {
                return CommandRefusal("a \(device.kind.rawValue) has no volume, mute or input")
            }
            if case .volume(.level(let level)) = self, !(0...100).contains(level) {
                return CommandRefusal("volume \(level) is out of range 0..100")
            }
            if case .input(_, let address) = self, !PayloadParser.isPhysicalAddress(address) {
                return CommandRefusal("input address \"\(address.prefix(32))\" is not a physical address a.b.c.d")
            }
            return nil
        }
    }
}

extension PayloadParser {
    /// The command an inbound device topic (`route`) with `payload` makes for `device`: `/set` by the device's kind,
    /// `/get` a refresh, `volume/set`, `mute/set` and `input/set` for a TV.
    public static func command(for route: TopicScheme.Inbound, payload: [UInt8], device: DeviceDescriptor)
        throws(PayloadError) -> DeviceCommand
    {
        switch route {
        case .deviceSet where device.kind == .thermostat, .modeSet: return try thermostatMode(payload, device: device)
        case .setpointSet: return try setpoint(payload, device: device)
        case .deviceSet: return try deviceCommand(payload, kind: device.kind)
        case .deviceGet, .bridgeRequest, .bridgeState, .deviceAvailability: return .refresh
        case .volumeSet, .muteSet, .inputSet:
            guard device.kind == .tv else {
                throw PayloadError("a \(device.kind.rawValue) has no volume, mute or input")
            }
            switch route {
            case .volumeSet: return .volume(try volumeCommand(payload))
            case .muteSet: return .mute(try muteCommand(payload))
            default:
                let input = try inputCommand(payload, inputs: device.inputs)
                return .input(name: input.name, address: input.address)
            }
        }
    }
}
