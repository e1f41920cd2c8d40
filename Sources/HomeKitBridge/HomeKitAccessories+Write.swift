public import BridgeCore
public import HomeKit
internal import Logging
internal import Synchronization

extension HomeKitAccessories {
    /// Checks every write, then sends the commands they make through the bridge's command path, in order: one
    /// command per device and kind of topic (a Lightbulb's On and Brightness in one request are one `/set`).
    /// Refused (and not sent): unknown ids, read-only characteristics, wrong types, values out of range, devices
    /// that are offline, and everything before the bridge runs.
    public func write(_ values: [(CharacteristicID, JSONValue)]) async -> [CharacteristicID: HAPStatus] {
        let (statuses, commands, bridge) = state.withLock { state in
            var plan = WritePlan()
            for (id, value) in values {
                let entry = state.entries[id]
                plan.add(id, value, entry, mirror: entry?.device.flatMap { state.mirrors[$0.address] })
            }
            let statuses = plan.finish()
            for (device, intent) in plan.intents { state.mirrors[device]?.apply(intent) }
            return (statuses, plan.commands, state.bridge)
        }
        for (id, status) in statuses.sorted(by: { $0.key < $1.key }) where status != .success {
            logger.debug("homekit write refused", metadata: ["characteristic": "\(id)", "status": "\(status)"])
        }
        guard let bridge else {
            return statuses.mapValues { $0 == .success ? .serviceCommunicationFailure : $0 }
        }
        for (device, command) in commands {
            await bridge.submit(command, to: device, from: .homeKit)
        }
        return statuses
    }
}

/// The commands a batch of writes makes, and each write's status.
struct WritePlan {
    private(set) var statuses: [CharacteristicID: HAPStatus] = [:]
    private(set) var commands: [(device: DeviceAddress, command: DeviceCommand)] = []
    /// What the writes ask for that the mirrors show at once (a lock's target, a cover's).
    private(set) var intents: [(device: DeviceAddress, intent: DeviceMirror.Intent)] = []
    /// A dimmer's On and Brightness of this batch, merged into one `/set` (by device, in order of first write).
    private var lights: [(device: DeviceAddress, on: Bool?, brightness: Int?)] = []

    mutating func add(
        _ id: CharacteristicID, _ value: JSONValue, _ entry: HomeKitAccessories.Entry?, mirror: DeviceMirror?
    ) {
        guard let entry else { return statuses[id] = .resourceDoesNotExist }
        guard entry.type.writable else { return statuses[id] = .readOnly }
        guard let accepted = Self.accept(value, entry.type) else { return statuses[id] = .invalidValue }
        guard let device = entry.device else {
            // The bridge's Identify: nothing to show.
            return statuses[id] = .success
        }
        guard mirror?.online == true else { return statuses[id] = .serviceCommunicationFailure }
        let address = device.address
        switch (entry.binding, accepted) {
        case (.identify, _):
            break
        case (.on, .bool(let on)) where device.kind == .dimmer:
            light(address) { $0.on = on }
        case (.brightness, .int(let brightness)):
            light(address) { $0.brightness = brightness }
        case (.on, .bool(let on)):
            commands.append((address, on ? .on : .off))
        case (.active, .int(let active)):
            commands.append((address, active == 1 ? .on : .off))
        case (.activeIdentifier, .int(let identifier)):
            let inputs = device.inputs.keys.sorted()
            guard inputs.indices.contains(identifier - 1) else { return statuses[id] = .invalidValue }
            let name = inputs[identifier - 1]
            guard let input = device.inputs[name] else { return statuses[id] = .invalidValue }
            commands.append((address, .input(name: name, address: input)))
        case (.mute, .bool(let muted)):
            commands.append((address, .mute(muted ? .on : .off)))
        case (.volume, .int(let volume)):
            commands.append((address, .volume(.level(volume))))
        case (.volumeSelector, .int(let selector)):
            commands.append((address, .volume(selector == 0 ? .up : .down)))
        case (.lockTarget, .int(let target)):
            commands.append((address, .setLocked(target == 1)))
            intents.append((address, .lockTarget(target)))
        case (.coverTarget, .int(let position)):
            commands.append((address, .level(ZWaveCoverMapping.level(position: position))))
            intents.append((address, .coverTarget(position)))
        case (.holdPosition, .bool(let hold)):
            if hold { commands.append((address, .stop)) }
        case (.targetHeatingCooling, .int(let target)):
            guard let mode = ThermostatStates.mode(target: target) else { return statuses[id] = .invalidValue }
            commands.append((address, .mode(mode)))
        case (.targetTemperature, .double(let celsius)):
            let unit = device.thermostat?.temperatureUnit ?? "°C"
            commands.append((address, .setpoint(ThermostatStates.deviceValue(celsius: celsius, unit: unit))))
        case (.temperatureUnits, _):
            break  // the device's unit is what it is
        default:
            return statuses[id] = .invalidValue
        }
        statuses[id] = .success
    }

    private mutating func light(
        _ device: DeviceAddress, _ change: (inout (device: DeviceAddress, on: Bool?, brightness: Int?)) -> Void
    ) {
        if let index = lights.firstIndex(where: { $0.device == device }) {
            change(&lights[index])
        } else {
            var entry: (device: DeviceAddress, on: Bool?, brightness: Int?) = (device, nil, nil)
            change(&entry)
            lights.append(entry)
        }
    }

    /// The statuses, once the dimmers' merged commands are added: off wins; a brightness is the level (100 %
    /// is the dimmer's top level, 99); On alone is `on` (the dimmer's last level).
    mutating func finish() -> [CharacteristicID: HAPStatus] {
        for light in lights {
            let command: DeviceCommand =
                if light.on == false { .off } else if let brightness = light.brightness {
                    .level(min(brightness, 99))
                } else { .on }
            commands.append((light.device, command))
        }
        lights = []
        return statuses
    }

    /// `value` as the type's format takes it (`.bool`, `.int`, or `.double` within a float's range), nil when it is
    /// not one.
    static func accept(_ value: JSONValue, _ type: CharacteristicType) -> JSONValue? {
        if let range = type.floatRange {
            let number: Double
            switch value {
            case .int(let integer): number = Double(integer)
            case .double(let double): number = double
            default: return nil
            }
            return number.isFinite && range.contains(number) ? .double(number) : nil
        }
        if type.format == "bool" {
            switch value {
            case .bool: return value
            case .int(let number) where number == 0 || number == 1: return .bool(number == 1)
            default: return nil
            }
        }
        guard let range = type.range else { return nil }
        let number: Int
        switch value {
        case .int(let integer): number = integer
        case .double(let double) where double.rounded() == double && abs(double) < 1e15: number = Int(double)
        default: return nil
        }
        return range.contains(number) ? .int(number) : nil
    }
}
