/// What a mapped device is, which decides the payloads its topics carry.
public enum DeviceKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A dimmer (FGD212): state `0`..`99`, `/set` takes levels and `on`/`off`/`toggle`.
    case dimmer
    /// A binary switch: state `on`/`off`.
    case binarySwitch = "switch"
    /// One socket of a power strip (PowerNode 6 endpoint): state `on`/`off`, metered.
    case socket
    /// A TV over HDMI-CEC: state `on`/`standby`/`unknown`, plus volume, mute and input.
    case tv
    /// A device that only reports sensors (a motion or door sensor): no state topic of its own and no `/set`, its
    /// readings on `<device>/<sensor>` (``Sensor``).
    case sensor
    /// A roller shutter or blind (a Multilevel Switch of a motor-control device type, ``ZWaveCoverMapping``): state
    /// the position `0`..`100` (% open), `<device>/movement` `opening`/`closing`/`stopped`; `/set` takes `open`,
    /// `close`, `stop` or a position.
    case cover
    /// A door lock (Door Lock command class, ``ZWaveLockMapping``): state `locked`/`unlocked`/`jammed`; `/set` takes
    /// `lock` or `unlock`.
    case lock
    /// A thermostat (Thermostat Setpoint or Mode, ``ZWaveThermostatMapping``): state its mode, `<device>/setpoint`
    /// and `<device>/mode` with their `/set`; `/set` takes a mode (or `on`, heat).
    case thermostat
    /// A device whose only function is scene buttons (Z-Wave Central Scene: a WallMote, a key fob): no state topic
    /// and no `/set`, each button's actions on `<device>/button/<n>` (``ButtonAction``). A device of another kind
    /// with Central Scene (a dimmer) keeps its kind and has the buttons too.
    case buttons
}
