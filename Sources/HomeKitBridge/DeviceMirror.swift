import BridgeCore

/// What the bridge last published for one device (its MQTT contract topics), and the characteristic values that
/// follow from it.
struct DeviceMirror: Sendable, Equatable {
    /// The state topic: `on`/`off`, `0`..`99`, `on`/`standby`/`unknown`.
    var state: String?
    var power: Double?
    /// `availability`: offline until the bridge publishes `online` (it does once the device's adapter is up).
    var online = false
    var volume: Int?
    var muted: Bool?
    var input: String?
    /// The last non-zero dimmer level: the brightness HomeKit shows while the light is off.
    var lastOnLevel: Int?
    /// Each sensor's payload (`21.5`, `on`, `open`).
    var sensors: [Sensor: String] = [:]
    /// A cover's `/movement`: `opening`, `closing`, `stopped`.
    var movement: String?
    /// The TargetPosition a controller last wrote to a cover, until it stops.
    var coverTarget: Int?
    /// A lock's LockTargetState: the last one written, else its state's.
    var lockTarget: Int?
    /// A thermostat's `mode`, `setpoint` and `operating_state` payloads.
    var mode: String?
    var setpoint: String?
    var operatingState: String?

    /// One publication on a device topic, `nil` payloads for a cleared retained topic.
    enum Publication: Sendable, Equatable {
        case state(String?)
        case power(Double?)
        case availability(online: Bool)
        case scene(Int)
        /// A scene button's action (`<device>/button/<n>`): an event, no state.
        case button(Int, ButtonAction)
        case volume(Int?)
        case mute(Bool?)
        case input(String?)
        case sensor(Sensor, String?)
        case movement(String?)
        case mode(String?)
        case setpoint(String?)
        case operatingState(String?)

        /// Whether the publication is an event (a scene, a button's action) rather than a state.
        var isEvent: Bool {
            switch self {
            case .scene, .button: true
            default: false
            }
        }
    }

    /// What a controller's write asks for, shown until the device's state tells otherwise.
    enum Intent: Sendable, Equatable {
        case lockTarget(Int)
        case coverTarget(Int)
    }

    /// The device and publication of `topic`, nil for a topic that is not a device topic the model follows
    /// (`/energy`, another bridge's topics, the bridge's own).
    static func parse(topic: String, payload: [UInt8], prefix: String) -> (DeviceAddress, Publication)? {
        let head = prefix + "/device/"
        guard topic.hasPrefix(head) else { return nil }
        let levels = topic.dropFirst(head.count).split(separator: "/", omittingEmptySubsequences: false)
        guard (2...4).contains(levels.count) else { return nil }
        let address = DeviceAddress(room: String(levels[0]), name: String(levels[1]))
        let text = String(decoding: payload, as: UTF8.self)
        if levels.count == 4 {
            guard levels[2] == "button", let button = Int(levels[3]), let action = ButtonAction(rawValue: text) else {
                return nil
            }
            return (address, .button(button, action))
        }
        let value: String? = text.isEmpty ? nil : text
        let publication: Publication
        switch levels.count == 2 ? "" : levels[2] {
        case "": publication = .state(value)
        case "power": publication = .power(value.flatMap { Double($0) })
        // A battery node between wake-ups (`asleep`) is reachable: its last readings stand.
        case "availability": publication = .availability(online: value == "online" || value == "asleep")
        case "scene":
            guard let scene = value.flatMap({ Int($0) }) else { return nil }
            publication = .scene(scene)
        case "volume": publication = .volume(value.flatMap { Int($0) })
        case "mute": publication = .mute(value.map { $0 == "on" })
        case "input": publication = .input(value)
        case "movement": publication = .movement(value)
        case "mode": publication = .mode(value)
        case "setpoint": publication = .setpoint(value)
        case "operating_state": publication = .operatingState(value)
        case let suffix:
            guard let sensor = Sensor(rawValue: String(suffix)) else { return nil }
            publication = .sensor(sensor, value)
        }
        return (address, publication)
    }

    /// Takes in a publication (a scene is no state: nothing changes).
    mutating func apply(_ publication: Publication) {
        switch publication {
        case .state(let value):
            state = value
            if let level = value.flatMap({ Int($0) }), level > 0 { lastOnLevel = level }
            if let lock = value.flatMap(LockState.init(rawValue:)), lock != .jammed {
                lockTarget = lock == .locked ? 1 : 0
            }
        case .power(let value): power = value
        case .availability(let online): self.online = online
        case .scene, .button: break
        case .volume(let value): volume = value
        case .mute(let value): muted = value
        case .input(let value): input = value
        case .sensor(let sensor, let value): sensors[sensor] = value
        case .mode(let value): mode = value
        case .setpoint(let value): setpoint = value
        case .operatingState(let value): operatingState = value
        case .movement(let value):
            movement = value
            if value == "stopped" { coverTarget = nil }
        }
    }

    /// Takes in a controller's write.
    mutating func apply(_ intent: Intent) {
        switch intent {
        case .lockTarget(let target): lockTarget = target
        case .coverTarget(let target): coverTarget = target
        }
    }

    /// A cover's position, `0`..`100` % open.
    var position: Int { min(max(state.flatMap { Int($0) } ?? 0, 0), 100) }

    /// Where a cover heads: the target written while it moves that way, else its end of travel; its position when
    /// it stands.
    var targetPosition: Int {
        switch movement {
        case "opening": coverTarget.flatMap { $0 > position ? $0 : nil } ?? 100
        case "closing": coverTarget.flatMap { $0 < position ? $0 : nil } ?? 0
        default: coverTarget ?? position
        }
    }

    /// Whether the TV's audio system has reported (its volume or mute): the TV then gets a speaker.
    var hasAudio: Bool { volume != nil || muted != nil }

    /// The dimmer level, `0`..`99`.
    var level: Int { state.flatMap { Int($0) } ?? 0 }

    /// The value `binding` shows for `device`; `.null` for write-only characteristics and switch events.
    func value(_ binding: Binding, device: DeviceDescriptor) -> JSONValue {
        switch binding {
        case .fixed(let value): value
        case .identify, .volumeSelector, .switchEvent, .holdPosition: .null
        case .on: .bool(device.kind == .dimmer ? level > 0 : state == "on")
        case .brightness: .int(Self.brightness(level: level > 0 ? level : lastOnLevel ?? 0))
        case .outletInUse: .bool(device.metered ? (power ?? 0) > 0 : state == "on")
        case .active: .int(state == "on" ? 1 : 0)
        case .activeIdentifier:
            .int(input.flatMap { device.inputs.keys.sorted().firstIndex(of: $0) }.map { $0 + 1 } ?? 0)
        case .mute: .bool(muted ?? false)
        case .volume: .int(volume ?? 0)
        case .sensor(let sensor): Self.reading(sensor, sensors[sensor], unit: device.sensors[sensor] ?? "")
        case .tampered: .int(sensors[.tamper] == "on" ? 1 : 0)
        // The bridge's own verdict (`battery_low`, below `[zwave] low_battery`), as every front end shows it.
        case .lowBattery: .int(sensors[.batteryLow] == "on" ? 1 : 0)
        case .lockCurrent: .int(ZWaveLockMapping.homeKitCurrentState(state.flatMap(LockState.init(rawValue:))))
        case .lockTarget: .int(lockTarget ?? 1)
        case .coverPosition: .int(position)
        case .coverTarget: .int(targetPosition)
        case .positionState: .int(movement == "opening" ? 1 : movement == "closing" ? 0 : 2)
        case .currentHeatingCooling: .int(ThermostatStates.current(mode: mode, operatingState: operatingState))
        case .targetHeatingCooling: .int(ThermostatStates.target(mode: mode))
        case .targetTemperature:
            .double(
                ThermostatStates.targetTemperature(setpoint: setpoint, traits: device.thermostat ?? ThermostatTraits()))
        case .temperatureUnits: .int(device.thermostat?.temperatureUnit == "°F" ? 1 : 0)
        }
    }

    /// The battery level, `0`..`100` %, nil before the device reported it.
    var battery: Int? { Self.percentage(sensors[.battery]) }

    /// A payload as a whole percentage, `0`..`100`.
    static func percentage(_ payload: String?) -> Int? {
        payload.flatMap { Double($0) }.flatMap { $0.isFinite ? Int(min(max($0, 0), 100).rounded()) : nil }
    }

    /// A sensor's payload as its HomeKit characteristic's value; before its first report, what HomeKit shows for
    /// nothing sensed (0, no motion, contact detected, no leak).
    static func reading(_ sensor: Sensor, _ payload: String?, unit: String) -> JSONValue {
        let number = payload.flatMap { Double($0) }.flatMap { $0.isFinite ? $0 : nil }
        switch sensor {
        case .temperature:
            // HomeKit's temperatures are °C, in tenths.
            let celsius = unit == "°F" ? number.map { ($0 - 32) * 5 / 9 } : number
            return .double(((celsius ?? 0) * 10).rounded() / 10)
        case .humidity: return .double(min(max(number ?? 0, 0), 100))
        case .luminance: return .double(min(max(number ?? 0, 0.0001), 100_000))
        case .battery: return .int(percentage(payload) ?? 0)
        case .motion: return .bool(payload == "on")
        case .contact: return .int(payload == "open" ? 1 : 0)
        case let binary where binary.isBinary: return .int(payload == "on" ? 1 : 0)
        default: return number.map { .double($0) } ?? .null
        }
    }

    /// A dimmer level as HomeKit's Brightness: the dimmer's top level, 99, is 100 %.
    static func brightness(level: Int) -> Int { level >= 99 ? 100 : level }
}
