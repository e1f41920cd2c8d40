/// The generic mapping of Z-Wave sensor values to ``Sensor``s, by command class and OpenZWave 1.6's value index (its
/// `ValueIDIndexesDefines.h`), for every product: Sensor Multilevel (index = sensor type), Meter (non-electric
/// scales), Notification (index = notification type, the list's item value = event), Sensor Binary (typed values,
/// by label) and Battery. Electric meters are the device's `/power` and `/energy`, not sensors; a value no sensor
/// claims (a generic binary sensor, a Notification type without a sensor) stays a value of the node.
///
/// The Z-Wave driver describes each OpenZWave value in these terms; the bridge publishes what comes out.
public enum ZWaveSensorMapping {
    public static let sensorBinary: UInt8 = 0x30
    public static let sensorMultilevel: UInt8 = 0x31
    public static let meter: UInt8 = 0x32
    public static let notification: UInt8 = 0x71
    public static let battery: UInt8 = 0x80
    /// The command classes whose values may be sensors.
    public static let commandClasses: Set<UInt8> = [sensorBinary, sensorMultilevel, meter, notification, battery]

    /// An OpenZWave value as the mapping reads it.
    public struct Value: Sendable, Equatable {
        public let commandClass: UInt8
        public let index: UInt16
        public let label: String
        public let units: String
        public let reading: Reading?

        public init(commandClass: UInt8, index: UInt16, label: String, units: String, reading: Reading?) {
            self.commandClass = commandClass
            self.index = index
            self.label = label
            self.units = units
            self.reading = reading
        }
    }

    /// A value's content, as far as a sensor needs it.
    public enum Reading: Sendable, Equatable {
        case decimal(Double, precision: Int)
        case integer(Int)
        case bool(Bool)
        /// A list selection: the selected item's value (a Notification event).
        case listItem(Int)
    }

    /// The sensors `value` stands for, with their units (empty for binary sensors); `listItems` are the item values
    /// its list offers (a Notification type's supported events; empty for other values).
    public static func sensors(of value: Value, listItems: [Int] = []) -> [Sensor: String] {
        switch value.commandClass {
        case notification:
            let sensors = notificationEvents[value.index].map { events in
                Set(listItems.compactMap { events[$0]?.sensor })
            }
            return Dictionary(uniqueKeysWithValues: (sensors ?? []).map { ($0, "") })
        default:
            guard let sensor = sensor(of: value) else { return [:] }
            return [sensor: sensor.isBinary ? "" : unit(value.units)]
        }
    }

    /// The readings a report of `value` gives: one for most values; a Notification's idle event (`0`, "Clear") ends
    /// every alarm of its type (motion and tamper; those the device does not have are dropped by the bridge).
    public static func readings(of value: Value) -> [(Sensor, SensorReading)] {
        guard let reading = value.reading else { return [] }
        if value.commandClass == notification {
            guard case .listItem(let event) = reading, let events = notificationEvents[value.index] else { return [] }
            if event == 0 {
                // A door is open or closed, not an alarm that clears: "Clear" leaves the contact as it was.
                let ended = Set(events.values.map { $0.sensor }).subtracting([.contact])
                return ended.sorted().map { ($0, .active(false)) }
            }
            return events[event].map { [($0.sensor, .active($0.active))] } ?? []
        }
        guard let sensor = sensor(of: value) else { return [] }
        switch (reading, sensor.isBinary) {
        case (.bool(let on), true): return [(sensor, .active(on))]
        case (.integer(let number), true): return [(sensor, .active(number != 0))]
        case (.decimal(let number, let precision), false):
            return [(sensor, .measurement(DeviceState.Measurement(value: number, precision: precision)))]
        case (.integer(let number), false):
            return [(sensor, .measurement(DeviceState.Measurement(value: Double(number), precision: 0)))]
        default: return []
        }
    }

    /// The sensor of a value that is not a Notification, nil when it is none.
    static func sensor(of value: Value) -> Sensor? {
        switch value.commandClass {
        case sensorMultilevel: multilevelTypes[value.index]
        case meter: meterScales[value.index]
        case sensorBinary: binaryLabels[value.label.lowercased()]
        case battery where value.index == 0: .battery
        default: nil
        }
    }

    /// A unit as published, in the symbols Home Assistant and most tools use: OpenZWave 1.6's `C` is `°C`, `Lux`
    /// `lx`, `UV` `UV index`, `Ppm` `ppm`, the meters' `m3` and `ft3` `m³` and `ft³` (absolute humidity's `g/m3`
    /// `g/m³`); others as the library gives them (`%`, `kPa`, `inHg`, `gal`, `kWh`).
    public static func unit(_ units: String) -> String {
        switch units {
        case "C": "°C"
        case "F": "°F"
        case "Lux", "lux": "lx"
        case "UV": "UV index"
        case "Ppm": "ppm"
        case "m3": "m³"
        case "ft3": "ft³"
        case "g/m3": "g/m³"
        default: units
        }
    }

    /// Sensor Multilevel: OpenZWave's index is the sensor type (1 air temperature, 3 luminance, 5 humidity, 8/9
    /// atmospheric/barometric pressure, 17 CO₂, 27 ultraviolet). Type 4 (power) is the Meter's `/power`.
    static let multilevelTypes: [UInt16: Sensor] = [
        1: .temperature, 3: .luminance, 5: .humidity, 8: .pressure, 9: .pressure, 17: .co2, 27: .ultraviolet,
    ]

    /// Meter: OpenZWave's index is 16 × (meter type − 1) + scale; electric (0-15) is not a sensor.
    static let meterScales: [UInt16: Sensor] = [
        16: .gasVolume, 17: .gasVolume, 32: .waterVolume, 33: .waterVolume, 34: .waterVolume, 48: .heatingEnergy,
        64: .coolingEnergy,
    ]

    /// Sensor Binary v2: one value per supported sensor type, labelled with the type's name. The generic `Sensor`
    /// (v1, or a type OpenZWave assumes) says nothing of what it senses and is no sensor.
    static let binaryLabels: [String: Sensor] = [
        "motion": .motion, "door/window": .contact, "tamper": .tamper, "smoke": .smoke, "water": .water,
    ]

    /// Notification: by type (OpenZWave's index), the events (the list item's value) that set or end a sensor;
    /// event 0 ("Clear") ends every sensor of the type.
    static let notificationEvents: [UInt16: [Int: (sensor: Sensor, active: Bool)]] = [
        // Smoke alarm: smoke detected (at a location, unknown location).
        1: [1: (.smoke, true), 2: (.smoke, true)],
        // Water alarm: leak detected (at a location, unknown location).
        5: [1: (.water, true), 2: (.water, true)],
        // Access control: window/door open (22), closed (23).
        6: [22: (.contact, true), 23: (.contact, false)],
        // Home security: tampering (cover removed 3, invalid code 4, moved 9), motion (at a location 7, unknown 8).
        7: [3: (.tamper, true), 4: (.tamper, true), 9: (.tamper, true), 7: (.motion, true), 8: (.motion, true)],
    ]
}
