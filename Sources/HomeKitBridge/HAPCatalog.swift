import BridgeCore

/// A HAP characteristic type: its UUID (Apple's short form), value format, permissions and metadata, as the
/// attribute database lists them (HAP specification, chapter 9).
struct CharacteristicType: Sendable {
    /// The short UUID, `25` for On.
    let type: String
    let format: String
    let perms: [String]
    let metadata: [(String, JSONValue)]

    var readable: Bool { perms.contains("pr") }
    var writable: Bool { perms.contains("pw") }
    var notifies: Bool { perms.contains("ev") }

    /// The accepted integer range, for the integer formats.
    var range: ClosedRange<Int>? {
        guard format != "bool", format != "string", format != "float" else { return nil }
        let minimum = metadata.first { $0.0 == "minValue" }.flatMap { Self.int($0.1) } ?? 0
        let maximum = metadata.first { $0.0 == "maxValue" }.flatMap { Self.int($0.1) } ?? Int(UInt32.max)
        return minimum...maximum
    }

    private static func int(_ value: JSONValue) -> Int? {
        if case .int(let number) = value { return number }
        return nil
    }

    private static let readOnly = ["pr"]
    private static let readNotify = ["pr", "ev"]
    private static let readWriteNotify = ["pr", "pw", "ev"]

    private static let percentage: [(String, JSONValue)] = [
        ("minValue", .int(0)), ("maxValue", .int(100)), ("minStep", .int(1)), ("unit", "percentage"),
    ]

    private static func choices(_ values: [Int]) -> [(String, JSONValue)] {
        [
            ("minValue", .int(values.min() ?? 0)), ("maxValue", .int(values.max() ?? 0)),
            ("valid-values", .array(values.map { .int($0) })),
        ]
    }

    // MARK: Accessory Information, HAP Protocol Information

    static let identify = CharacteristicType(type: "14", format: "bool", perms: ["pw"], metadata: [])
    static let manufacturer = CharacteristicType(type: "20", format: "string", perms: readOnly, metadata: [])
    static let model = CharacteristicType(type: "21", format: "string", perms: readOnly, metadata: [])
    static let name = CharacteristicType(type: "23", format: "string", perms: readOnly, metadata: [])
    static let serialNumber = CharacteristicType(type: "30", format: "string", perms: readOnly, metadata: [])
    static let firmwareRevision = CharacteristicType(type: "52", format: "string", perms: readOnly, metadata: [])
    static let version = CharacteristicType(type: "37", format: "string", perms: readOnly, metadata: [])

    // MARK: Lightbulb, Outlet

    static let on = CharacteristicType(type: "25", format: "bool", perms: readWriteNotify, metadata: [])
    static let brightness = CharacteristicType(
        type: "8", format: "int", perms: readWriteNotify, metadata: percentage)
    static let outletInUse = CharacteristicType(type: "26", format: "bool", perms: readNotify, metadata: [])

    // MARK: Television, Input Source, Television Speaker

    static let active = CharacteristicType(
        type: "B0", format: "uint8", perms: readWriteNotify, metadata: choices([0, 1]))
    static let activeIdentifier = CharacteristicType(
        type: "E7", format: "uint32", perms: readWriteNotify, metadata: [("minValue", .int(0))])
    static let configuredName = CharacteristicType(type: "E3", format: "string", perms: readNotify, metadata: [])
    /// 1: always discoverable (the bridge can always switch the TV on).
    static let sleepDiscoveryMode = CharacteristicType(
        type: "E8", format: "uint8", perms: readNotify, metadata: choices([0, 1]))
    /// 3: HDMI.
    static let inputSourceType = CharacteristicType(
        type: "DB", format: "uint8", perms: readNotify, metadata: [("minValue", .int(0)), ("maxValue", .int(10))])
    static let isConfigured = CharacteristicType(
        type: "D6", format: "uint8", perms: readNotify, metadata: choices([0, 1]))
    static let currentVisibilityState = CharacteristicType(
        type: "135", format: "uint8", perms: readNotify, metadata: choices([0, 1]))
    static let identifier = CharacteristicType(
        type: "E6", format: "uint32", perms: readOnly, metadata: [("minValue", .int(0))])
    static let mute = CharacteristicType(type: "11A", format: "bool", perms: readWriteNotify, metadata: [])
    static let volume = CharacteristicType(
        type: "119", format: "uint8", perms: readWriteNotify, metadata: percentage)
    /// 3: absolute (the bridge sets a volume `0`..`100`).
    static let volumeControlType = CharacteristicType(
        type: "E9", format: "uint8", perms: readNotify, metadata: [("minValue", .int(0)), ("maxValue", .int(3))])
    /// 0: increment, 1: decrement.
    static let volumeSelector = CharacteristicType(
        type: "EA", format: "uint8", perms: ["pw"], metadata: choices([0, 1]))

    // MARK: Stateless Programmable Switch, Service Label

    /// 0: single press, 1: double press, 2: long press. Read as null (an event, not a state).
    static let programmableSwitchEvent = CharacteristicType(
        type: "73", format: "uint8", perms: readNotify, metadata: choices([0, 1, 2]))
    static let serviceLabelIndex = CharacteristicType(
        type: "CB", format: "uint8", perms: readOnly, metadata: [("minValue", .int(1))])
    /// 1: arabic numerals (the buttons are S1 and S2).
    static let serviceLabelNamespace = CharacteristicType(
        type: "CD", format: "uint8", perms: readOnly, metadata: choices([0, 1]))

    // MARK: Lock Mechanism, Window Covering

    /// 0: unsecured, 1: secured, 2: jammed, 3: unknown.
    static let lockCurrentState = CharacteristicType(
        type: "1D", format: "uint8", perms: readNotify, metadata: choices([0, 1, 2, 3]))
    /// 0: unsecured, 1: secured.
    static let lockTargetState = CharacteristicType(
        type: "1E", format: "uint8", perms: readWriteNotify, metadata: choices([0, 1]))
    /// % open.
    static let currentPosition = CharacteristicType(
        type: "6D", format: "uint8", perms: readNotify, metadata: percentage)
    static let targetPosition = CharacteristicType(
        type: "7C", format: "uint8", perms: readWriteNotify, metadata: percentage)
    /// 0: decreasing (closing), 1: increasing (opening), 2: stopped.
    static let positionState = CharacteristicType(
        type: "72", format: "uint8", perms: readNotify, metadata: choices([0, 1, 2]))
    /// Write true: stop where it is.
    static let holdPosition = CharacteristicType(type: "6F", format: "bool", perms: ["pw"], metadata: [])

    // MARK: Thermostat

    /// 0: off, 1: heat, 2: cool.
    static let currentHeatingCoolingState = CharacteristicType(
        type: "F", format: "uint8", perms: readNotify, metadata: choices([0, 1, 2]))
    /// 0: off, 1: heat, 2: cool, 3: auto; `modes` the values the device has (a radiator valve: off and heat).
    static func targetHeatingCoolingState(_ modes: [Int]) -> CharacteristicType {
        CharacteristicType(type: "33", format: "uint8", perms: readWriteNotify, metadata: choices(modes))
    }
    /// °C within the device's range (`minimum`...`maximum`, in `step`s).
    static func targetTemperature(minimum: Double, maximum: Double, step: Double) -> CharacteristicType {
        CharacteristicType(
            type: "35", format: "float", perms: readWriteNotify,
            metadata: [
                ("minValue", .double(minimum)), ("maxValue", .double(maximum)), ("minStep", .double(step)),
                ("unit", "celsius"),
            ])
    }
    /// 0: Celsius, 1: Fahrenheit (the device's unit; a write is taken and changes nothing).
    static let temperatureDisplayUnits = CharacteristicType(
        type: "36", format: "uint8", perms: readWriteNotify, metadata: choices([0, 1]))

    /// The accepted range of a float format, from its metadata.
    var floatRange: ClosedRange<Double>? {
        guard format == "float" else { return nil }
        func number(_ key: String) -> Double? {
            switch metadata.first(where: { $0.0 == key })?.1 {
            case .int(let value)?: Double(value)
            case .double(let value)?: value
            default: nil
            }
        }
        guard let minimum = number("minValue"), let maximum = number("maxValue"), minimum <= maximum else { return nil }
        return minimum...maximum
    }

    // MARK: Sensors, Battery Service

    /// °C, one decimal (a device reporting °F is converted). HAP's own range, 0-100, leaves out a frost outside; the
    /// minimum is HAP-NodeJS's, which Apple Home accepts.
    static let currentTemperature = CharacteristicType(
        type: "11", format: "float", perms: readNotify,
        metadata: [("minValue", .int(-270)), ("maxValue", .int(100)), ("minStep", .double(0.1)), ("unit", "celsius")])
    static let currentRelativeHumidity = CharacteristicType(
        type: "10", format: "float", perms: readNotify, metadata: percentage)
    /// Lux, from 0.0001 (HAP's minimum: a dark room reads 0.0001, not 0).
    static let currentAmbientLightLevel = CharacteristicType(
        type: "6B", format: "float", perms: readNotify,
        metadata: [("minValue", .double(0.0001)), ("maxValue", .int(100_000)), ("unit", "lux")])
    static let motionDetected = CharacteristicType(type: "22", format: "bool", perms: readNotify, metadata: [])
    /// 0: contact detected (closed), 1: contact not detected (open).
    static let contactSensorState = CharacteristicType(
        type: "6A", format: "uint8", perms: readNotify, metadata: choices([0, 1]))
    /// 0: no leak, 1: leak detected.
    static let leakDetected = CharacteristicType(
        type: "70", format: "uint8", perms: readNotify, metadata: choices([0, 1]))
    /// 0: no smoke, 1: smoke detected.
    static let smokeDetected = CharacteristicType(
        type: "76", format: "uint8", perms: readNotify, metadata: choices([0, 1]))
    /// 0: not tampered, 1: tampered.
    static let statusTampered = CharacteristicType(
        type: "7A", format: "uint8", perms: readNotify, metadata: choices([0, 1]))
    static let batteryLevel = CharacteristicType(
        type: "68", format: "uint8", perms: readNotify, metadata: percentage)
    /// 0: normal, 1: low.
    static let statusLowBattery = CharacteristicType(
        type: "79", format: "uint8", perms: readNotify, metadata: choices([0, 1]))
    /// 0: not charging, 1: charging, 2: not chargeable.
    static let chargingState = CharacteristicType(
        type: "8F", format: "uint8", perms: readNotify, metadata: choices([0, 1, 2]))
}

/// The HAP service types the bridge uses (Apple's short UUIDs).
enum ServiceType {
    static let accessoryInformation = "3E"
    static let protocolInformation = "A2"
    static let lightbulb = "43"
    static let outlet = "47"
    static let lockMechanism = "45"
    static let windowCovering = "8C"
    static let television = "D8"
    static let inputSource = "D9"
    static let televisionSpeaker = "113"
    static let statelessProgrammableSwitch = "89"
    static let serviceLabel = "CC"
    static let temperatureSensor = "8A"
    static let humiditySensor = "82"
    static let lightSensor = "84"
    static let motionSensor = "85"
    static let contactSensor = "80"
    static let leakSensor = "83"
    static let smokeSensor = "87"
    static let batteryService = "96"
    static let thermostat = "4A"
}
