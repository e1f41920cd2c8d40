/// A reading a device reports beside its state, each on its own retained topic `<prefix>/device/<room>/<name>/<name
/// of the sensor>` (`temperature`, `motion`...): measurements as decimals in the device's precision, binary sensors
/// as `on`/`off` (a contact `open`/`closed`), the battery as an integer percentage.
public enum Sensor: String, Sendable, Hashable, CaseIterable, Comparable {
    case temperature
    case humidity
    case luminance
    case ultraviolet
    case pressure
    case co2
    /// Non-electric meters: m³ (or ft³, gallons) of gas and water, kWh of heat and cold.
    case gasVolume = "gas_volume"
    case waterVolume = "water_volume"
    case heatingEnergy = "heating_energy"
    case coolingEnergy = "cooling_energy"
    /// Binary and event sensors.
    case motion
    case contact
    case tamper
    case smoke
    case water
    /// Battery level, `0`..`100` %.
    case battery
    /// Whether the battery is low: `on` below the `[zwave] low_battery` threshold (default 20 %), else `off`. The
    /// bridge derives it from `battery`: every device with a battery has it.
    case batteryLow = "battery_low"

    /// Whether the sensor is on/off (or open/closed) rather than a number.
    public var isBinary: Bool {
        switch self {
        case .motion, .contact, .tamper, .smoke, .water, .batteryLow: true
        default: false
        }
    }

    /// The payload of a binary sensor: `open`/`closed` for a contact, `on`/`off` for the rest.
    public func payload(active: Bool) -> String {
        switch self {
        case .contact: active ? "open" : "closed"
        default: active ? "on" : "off"
        }
    }

    /// In the order of `allCases` (the inventory lists sensors in that order).
    public static func < (lhs: Sensor, rhs: Sensor) -> Bool {
        order(lhs) < order(rhs)
    }

    private static func order(_ sensor: Sensor) -> Int { allCases.firstIndex(of: sensor) ?? 0 }
}

/// One sensor's reading.
public enum SensorReading: Sendable, Equatable {
    /// A number with the device's precision (the battery: precision 0).
    case measurement(DeviceState.Measurement)
    /// A binary sensor: motion detected, contact open, tamper, smoke or water detected.
    case active(Bool)
}
