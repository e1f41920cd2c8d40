internal import BridgeCore

/// A device's sensors (``Sensor``, with the units of the inventory) as Home Assistant entities, each on the sensor's own
/// topic `<device>/<sensor>`:
/// - a measurement is a `sensor` with Home Assistant's device class where it has one (temperature, humidity,
///   illuminance, pressure, carbon dioxide, gas, water, energy; ultraviolet has none) and the unit, with
///   state class `measurement` (a meter's `total_increasing`);
/// - a binary sensor is a `binary_sensor` (motion, door, tamper, smoke, moisture) with the bridge's payloads (`on`/`off`,
///   a contact `open`/`closed`);
/// - the battery is a `sensor` of class battery, in `%`, and its `battery_low` a `binary_sensor` of class battery
///   (`on`: low); they and the tamper switch are diagnostic entities (as Home Assistant's own Z-Wave integration has
///   them).
/// A unit that Home Assistant does not take for the sensor's device class (illuminance in `%`, humidity in `g/m³`, a
/// sensor without a unit) leaves the device class out: Home Assistant shows the number with the device's unit and
/// keeps its statistics (the state class), without the class's icon and unit conversion, and without the warning
/// (from 2025.7 an error) that a class with a unit not its own gets.
extension DiscoveryMapping {
    /// How one sensor appears in Home Assistant.
    struct SensorEntity: Sendable {
        /// `sensor` or `binary_sensor`.
        let component: String
        /// The entity's name (after its device's, or its own device's room and name on a node of several devices).
        let name: String
        /// The platform's options: state topic, device and state class, unit, payloads, entity category.
        let fields: [(String, JSONValue)]
    }

    /// What Home Assistant makes of `sensor` (with the inventory's `unit`) on `topic`.
    static func sensorEntity(_ sensor: Sensor, unit: String, topic: String) -> SensorEntity {
        var fields: [(String, JSONValue)] = [("state_topic", .string(topic))]
        if sensor.isBinary {
            fields += [
                ("device_class", .string(binaryDeviceClass(sensor))),
                ("payload_on", .string(sensor.payload(active: true))),
                ("payload_off", .string(sensor.payload(active: false))),
            ]
        } else {
            let classes = measurementClasses(sensor)
            if let deviceClass = classes.device, acceptedUnits[deviceClass]?.contains(unit) == true {
                fields.append(("device_class", .string(deviceClass)))
            }
            fields.append(("state_class", .string(classes.state)))
            if !unit.isEmpty { fields.append(("unit_of_measurement", .string(unit))) }
        }
        if [.battery, .batteryLow, .tamper].contains(sensor) { fields.append(("entity_category", "diagnostic")) }
        return SensorEntity(component: sensor.isBinary ? "binary_sensor" : "sensor", name: name(sensor), fields: fields)
    }

    /// The entity's name: the sensor's topic name in words (`Gas volume`, `CO2`).
    static func name(_ sensor: Sensor) -> String {
        switch sensor {
        case .co2: "CO2"
        default:
            String(sensor.rawValue.prefix(1).uppercased() + sensor.rawValue.dropFirst()).replacing("_", with: " ")
        }
    }

    /// A binary sensor's Home Assistant device class: a contact is a door, water a leak (moisture).
    static func binaryDeviceClass(_ sensor: Sensor) -> String {
        switch sensor {
        case .contact: "door"
        case .water: "moisture"
        case .batteryLow: "battery"  // on: low
        default: sensor.rawValue  // motion, tamper, smoke
        }
    }

    /// A measurement's Home Assistant device class (nil: Home Assistant has none) and state class: meters only
    /// grow (`total_increasing`, for the Energy dashboard), the rest are `measurement`s.
    static func measurementClasses(_ sensor: Sensor) -> (device: String?, state: String) {
        switch sensor {
        case .temperature: ("temperature", "measurement")
        case .humidity: ("humidity", "measurement")
        case .luminance: ("illuminance", "measurement")
        case .pressure: ("pressure", "measurement")
        case .co2: ("carbon_dioxide", "measurement")
        case .battery: ("battery", "measurement")
        case .gasVolume: ("gas", "total_increasing")
        case .waterVolume: ("water", "total_increasing")
        case .heatingEnergy, .coolingEnergy: ("energy", "total_increasing")
        case .ultraviolet, .motion, .contact, .tamper, .smoke, .water, .batteryLow: (nil, "measurement")
        }
    }

    /// The units Home Assistant 2025.4 takes for the device classes above (`DEVICE_CLASS_UNITS`), in its spelling,
    /// which is the inventory's (``ZWaveSensorMapping/unit(_:)``).
    static let acceptedUnits: [String: Set<String>] = [
        "temperature": ["°C", "°F", "K"],
        "humidity": ["%"],
        "illuminance": ["lx"],
        "pressure": ["Pa", "hPa", "kPa", "bar", "cbar", "mbar", "mmHg", "inHg", "psi"],
        "carbon_dioxide": ["ppm"],
        "battery": ["%"],
        "gas": ["m³", "ft³", "CCF"],
        "water": ["L", "gal", "m³", "ft³", "CCF"],
        "energy": ["Wh", "kWh", "MWh", "GWh", "TWh", "mWh", "J", "kJ", "MJ", "GJ", "cal", "kcal", "Mcal", "Gcal"],
    ]
}
