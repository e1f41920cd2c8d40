/// What the bridge knows of a device's state; each field is published on its own retained topic.
public struct DeviceState: Sendable, Equatable {
    /// On/off for switches, sockets and TVs (`nil`: unknown).
    public var isOn: Bool?
    /// Dimmer level `0`..`99`.
    public var level: Int?
    /// The level a motor heads for, as the device reports it (Switch Multilevel v4's target value): with `level`, a
    /// cover's movement (``ZWaveCoverMapping/movement(level:target:)``).
    public var target: Int?
    /// A door lock's bolt (``DeviceKind/lock``), nil before its first report.
    public var lock: LockState?
    /// The last non-zero dimmer level, restored by `on`.
    public var lastOnLevel: Int?
    /// Watts and kWh, with the device's precision (decimals).
    public var power: Measurement?
    public var energy: Measurement?
    /// Dead node or lost adapter: `false`.
    public var online = true
    /// A battery node between wake-ups (availability `asleep` while `online`).
    public var asleep = false
    /// TV/audio system.
    public var volume: Int?
    public var muted: Bool?
    public var input: String?
    /// A thermostat's heating setpoint (with the device's precision), mode and operating state.
    public var setpoint: Measurement?
    public var mode: ThermostatMode?
    public var operatingState: String?
    /// Sensor readings (temperature, motion, battery...), each published on `<device>/<sensor>`.
    public var sensors: [Sensor: SensorReading] = [:]

    public init() {}

    /// A decimal reading with the number of decimals the device reported.
    public struct Measurement: Sendable, Equatable {
        public var value: Double
        public var precision: Int
        public init(value: Double, precision: Int) {
            self.value = value
            self.precision = precision
        }
    }
}
