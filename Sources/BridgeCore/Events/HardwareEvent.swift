/// Something the hardware side reports to the bridge, already copied out of the C library into a
/// `Sendable` value. The bridge maps it to topics (`Bridge+Publish.swift`).
public enum HardwareEvent: Sendable {
    /// A state reading of a device.
    case update(DeviceSource, StateUpdate)
    /// A node died or came back; an adapter was lost or recovered (all its devices at once).
    case availability(DeviceSource, online: Bool)
    /// A battery node fell asleep or woke up (Z-Wave Wake Up): while asleep its devices' availability is `asleep`,
    /// which is neither dead nor offline (a command to it waits for its wake-up).
    case sleeping(DeviceSource, asleep: Bool)
    case adapterAvailability(adapter: Adapter, online: Bool, reason: String)
    /// The adapter's network id: the Z-Wave home id (`c0ffee01`), which makes device identities stable.
    case network(Adapter, id: String)
    /// The adapter has reported every device of its network (Z-Wave: the start-up queries ended).
    case networkQueried(Adapter)
    /// A scene activation (FGD212 S1/S2 clicks; Central Scene is `button`): published on `<device>/scene`, never
    /// retained.
    case scene(node: Int, instance: Int?, sceneID: Int)
    /// A node the configuration does not name appeared (it gets an `unassigned/node<N>` device).
    case discovered(DeviceDescriptor)
    /// The hardware revealed what a configured device is (a Switch Multilevel makes it a dimmer, a
    /// Switch Binary a switch or socket; a Meter makes it metered).
    case identified(DeviceSource, kind: DeviceKind, metered: Bool)
    /// The hardware revealed sensors of a device (Z-Wave: Sensor Multilevel, Sensor Binary, Notification, a
    /// non-electric Meter, Battery values), with their units (empty for a binary sensor); added to those it had.
    case sensorsFound(DeviceSource, [Sensor: String])
    /// The hardware revealed what a thermostat offers (its setpoint's range and unit, its modes): added to what its
    /// device knew.
    case thermostatFound(DeviceSource, ThermostatTraits)
    /// The hardware revealed scene buttons of a device (Z-Wave Central Scene): each button's number with the actions
    /// it supports; added to those it had.
    case buttonsFound(DeviceSource, [Int: [ButtonAction]])
    /// A scene button was used: published on `<device>/button/<n>`, never retained.
    case button(DeviceSource, button: Int, ButtonAction)
    /// Facts for the inventory (manufacturer, product, interview stage...) of a Z-Wave node or CEC device.
    case details(DeviceSource, [(String, JSONValue)])
    /// A device left the network (exclusion): its retained topics are cleared.
    case removed(DeviceSource)
    /// Anything else worth an event on `<prefix>/bridge/<bridge>/event`.
    case event(BridgeEvent)

    /// One field of `DeviceState`.
    public enum StateUpdate: Sendable, Equatable {
        case isOn(Bool?)
        case level(Int)
        /// The level the device heads for (`0`..`99`): a moving cover's goal, its level when it stands.
        case target(Int)
        /// A door lock's state: locked or unlocked (its Door Lock report), jammed (its notification).
        case lock(LockState)
        case power(DeviceState.Measurement)
        case energy(DeviceState.Measurement)
        case volume(Int)
        case muted(Bool)
        /// The active input's physical address `a.b.c.d`.
        case input(String)
        /// A thermostat's heating setpoint, mode and operating state.
        case setpoint(DeviceState.Measurement)
        case mode(ThermostatMode)
        case operatingState(String)
        /// A sensor's reading, published on `<device>/<sensor>`.
        case sensor(Sensor, SensorReading)
    }
}
