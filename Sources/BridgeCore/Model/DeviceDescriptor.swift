/// A device the bridge serves: where it is in the topic tree, what it is, and where it lives.
public struct DeviceDescriptor: Sendable, Hashable {
    public let address: DeviceAddress
    public let kind: DeviceKind
    public let source: DeviceSource
    /// Metered devices publish `/power` and `/energy`.
    public let metered: Bool
    /// CEC TVs: input names to physical addresses (`a.b.c.d`).
    public let inputs: [String: String]
    /// Whether the device is in devices.toml (false: an `unassigned/node<N>` device).
    public let configured: Bool
    /// Whether `kind` and `metered` are what the hardware reported (false: a first guess from devices.toml that
    /// the node's interview, or the network cache, may correct).
    public let kindKnown: Bool
    /// The sensors the hardware reported, with their units (`°C`, `%`, `lx`; empty for binary sensors): the inventory
    /// lists them.
    public let sensors: [Sensor: String]
    /// A thermostat's setpoint range, unit and modes (nil for any other device).
    public let thermostat: ThermostatTraits?
    /// The scene buttons the hardware reported (Central Scene), each with the actions it supports.
    public private(set) var buttons: [Int: [ButtonAction]] = [:]

    public init(
        address: DeviceAddress, kind: DeviceKind, source: DeviceSource, metered: Bool = false,
        inputs: [String: String] = [:], configured: Bool = true, kindKnown: Bool = true,
        sensors: [Sensor: String] = [:],
        thermostat: ThermostatTraits? = nil
    ) {
        self.address = address
        self.kind = kind
        self.source = source
        self.metered = metered
        self.inputs = inputs
        self.configured = configured
        self.kindKnown = kindKnown
        self.sensors = sensors
        self.thermostat = thermostat
    }
}

extension DeviceDescriptor {
    /// The device as the hardware identified it: of `kind`, metered or not, its kind known.
    public func identified(as kind: DeviceKind, metered: Bool) -> DeviceDescriptor {
        var device = DeviceDescriptor(
            address: address, kind: kind, source: source, metered: metered, inputs: inputs, configured: configured,
            kindKnown: true, sensors: sensors, thermostat: thermostat)
        device.buttons = buttons
        return device
    }

    /// The device with `found` added to its sensors (a unit reported again replaces the one known).
    public func adding(sensors found: [Sensor: String]) -> DeviceDescriptor {
        var device = DeviceDescriptor(
            address: address, kind: kind, source: source, metered: metered, inputs: inputs, configured: configured,
            kindKnown: kindKnown, sensors: sensors.merging(found) { $1 }, thermostat: thermostat)
        device.buttons = buttons
        return device
    }

    /// The device with `found` added to what it knew of its thermostat.
    public func adding(thermostat found: ThermostatTraits) -> DeviceDescriptor {
        var device = DeviceDescriptor(
            address: address, kind: kind, source: source, metered: metered, inputs: inputs, configured: configured,
            kindKnown: kindKnown, sensors: sensors, thermostat: thermostat?.merging(found) ?? found)
        device.buttons = buttons
        return device
    }

    /// The device with `found` added to its buttons (a button reported again with other actions has those).
    public func adding(buttons found: [Int: [ButtonAction]]) -> DeviceDescriptor {
        var device = self
        device.buttons.merge(found) { $1 }
        return device
    }
}
