/// The inventory (`<prefix>/bridge/<bridge>/devices`), the front ends' view of it, and the state payloads.
extension StatePublisher {
    /// The retained inventory on `<prefix>/bridge/<bridge>/devices`.
    /// Published only when it changed (an interview step that changes nothing publishes nothing).
    mutating func publishInventory(into out: inout Outbox) {
        let text = inventory().serialized
        guard text != lastInventory else { return }
        lastInventory = text
        out.inventory()
        notifyFrontEnds(into: &out)
    }

    /// Tells the front ends the inventory, when it changed since they last saw it.
    mutating func notifyFrontEnds(into out: inout Outbox) {
        guard hasFrontEnds else { return }
        let inventory = frontEndSnapshot()
        guard inventory != frontEndInventory else { return }
        frontEndInventory = inventory
        out.frontEndInventory()
    }

    func frontEndSnapshot() -> BridgeInventory {
        let devices = registry.all.map { device in
            var facts: [String: String] = [:]
            let node: DeviceSource? =
                if case .zwave(let node, _) = device.source { .zwave(node: node, instance: nil) } else { nil }
            for (key, value) in details[device.source] ?? node.flatMap({ details[$0] }) ?? [] {
                if case .string(let text) = value { facts[key] = text }
            }
            return BridgeInventory.Device(descriptor: device, facts: facts)
        }
        // Adapters without a backend add no devices; CEC devices come from the configuration.
        let open: Set<Adapter> = adapters.contains(.zwave) && !networksQueried.contains(.zwave) ? [.zwave] : []
        return BridgeInventory(
            identity: identity, devices: devices, networks: networks,
            complete: Set(Adapter.allCases).subtracting(open))
    }

    /// Publishes again every device's availability and every state it has reported, and the bridge's own
    /// `online` (for a consumer that lost them, such as a restarted Home Assistant; retained anyway).
    func republish(into out: inout Outbox) {
        out.publish(topics.bridgeState, "online", retain: true)
        for device in registry.all {
            publishAvailability(device, into: &out)
            let state = registry.state(of: device.address)
            for (topic, payload) in Self.statePayloads(state, of: device, topics: topics.device(device.address)) {
                out.publish(topic, payload, retain: true)
            }
        }
    }

    /// Every retained state topic of `device` with a known value, with its payload.
    static func statePayloads(_ state: DeviceState, of device: DeviceDescriptor, topics: TopicScheme.Device)
        -> [(String, String)]
    {
        var payloads: [(String, String)] = []
        if device.kind == .thermostat {
            payloads += thermostatPayloads(state, topics: topics)
        } else if state.isOn != nil || state.level != nil || state.lock != nil {
            payloads.append((topics.state, statePayload(state, kind: device.kind)))
        }
        if device.kind == .cover, let movement = ZWaveCoverMapping.movement(level: state.level, target: state.target) {
            payloads.append((topics.movement, movement))
        }
        if let power = state.power { payloads.append((topics.power, decimal(power))) }
        if let energy = state.energy { payloads.append((topics.energy, decimal(energy))) }
        if let volume = state.volume { payloads.append((topics.volume, String(volume))) }
        if let muted = state.muted { payloads.append((topics.mute, muted ? "on" : "off")) }
        if let input = state.input {
            payloads.append((topics.input, device.inputs.first { $0.value == input }?.key ?? input))
        }
        for (sensor, reading) in state.sensors.sorted(by: { $0.key < $1.key }) {
            payloads.append((topics.sensor(sensor), sensorPayload(sensor, reading)))
        }
        return payloads
    }

    /// A thermostat's retained topics with a known value: its mode (on the state topic too), setpoint and operating
    /// state.
    static func thermostatPayloads(_ state: DeviceState, topics: TopicScheme.Device) -> [(String, String)] {
        var payloads: [(String, String)] = []
        if let mode = state.mode { payloads += [(topics.state, mode.rawValue), (topics.mode, mode.rawValue)] }
        if let setpoint = state.setpoint { payloads.append((topics.setpoint, decimal(setpoint))) }
        if let operating = state.operatingState { payloads.append((topics.operatingState, operating)) }
        return payloads
    }

    /// A thermostat's inventory fields: its setpoint's range, step and unit, and its modes.
    static func thermostatFields(_ traits: ThermostatTraits) -> [(String, JSONValue)] {
        let range = traits.range
        return [
            (
                "setpoint",
                .object([
                    ("min", .double(range.lowerBound)), ("max", .double(range.upperBound)),
                    ("step", .double(traits.step)), ("unit", .string(traits.temperatureUnit)),
                ])
            ),
            ("modes", .array(traits.offeredModes.map { .string($0.rawValue) })),
        ]
    }

    func inventory() -> JSONValue {
        .array(
            registry.all.map { device in
                let state = registry.state(of: device.address)
                var fields: [(String, JSONValue)] = [
                    ("topic", .string(topics.device(device.address).state)),
                    ("room", .string(device.address.room)), ("name", .string(device.address.name)),
                    ("kind", .string(device.kind.rawValue)), ("adapter", .string(device.source.adapter.rawValue)),
                ]
                switch device.source {
                case .zwave(let node, let instance):
                    fields.append(("node", .int(node)))
                    if let instance { fields.append(("instance", .int(instance))) }
                case .cec(let address):
                    fields.append(("logical_address", .int(address)))
                }
                if !device.inputs.isEmpty {
                    // The names a TV's `/input/set` takes, in the order of their physical addresses.
                    let inputs = device.inputs.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key)
                    fields.append(("inputs", .array(inputs.map { .string($0) })))
                }
                if !device.sensors.isEmpty {
                    // Each sensor's topic name with its unit (null for a binary sensor), in a fixed order.
                    let sensors = device.sensors.sorted { $0.key < $1.key }.map { sensor, unit in
                        (sensor.rawValue, unit.isEmpty ? JSONValue.null : .string(unit))
                    }
                    fields.append(("sensors", .object(sensors)))
                }
                if device.kind == .thermostat {
                    fields += Self.thermostatFields(device.thermostat ?? ThermostatTraits())
                }
                if !device.buttons.isEmpty {
                    // Each button's number with the actions it supports, buttons in order.
                    let buttons = device.buttons.sorted { $0.key < $1.key }.map { button, actions in
                        (String(button), JSONValue.array(actions.sorted().map { .string($0.rawValue) }))
                    }
                    fields.append(("buttons", .object(buttons)))
                }
                fields.append(("configured", .bool(device.configured)))
                fields.append(("alive", .bool(state.online && isOnline(device.source.adapter))))
                let nodeSource: DeviceSource? =
                    if case .zwave(let node, _) = device.source { .zwave(node: node, instance: nil) } else { nil }
                fields.append(contentsOf: details[device.source] ?? nodeSource.flatMap { details[$0] } ?? [])
                return .object(fields)
            })
    }

    static func statePayload(_ state: DeviceState, kind: DeviceKind) -> String {
        switch kind {
        case .dimmer: String(state.level ?? 0)
        case .cover: String(ZWaveCoverMapping.position(level: state.level ?? 0))
        case .binarySwitch, .socket: state.isOn == true ? "on" : "off"
        case .tv: state.isOn.map { $0 ? "on" : "standby" } ?? "unknown"
        case .lock: state.lock?.rawValue ?? "unknown"
        // A sensor device has no state topic (``statePayloads(_:of:topics:)`` never asks).
        case .sensor: ""
        case .thermostat: state.mode?.rawValue ?? ""
        case .buttons: ""
        }
    }

    /// A sensor's payload: a decimal in the device's precision (`21.5`, the battery `90`), `on`/`off`, or
    /// `open`/`closed` for a contact.
    static func sensorPayload(_ sensor: Sensor, _ reading: SensorReading) -> String {
        switch reading {
        case .measurement(let measurement): decimal(measurement)
        case .active(let active): sensor.payload(active: active)
        }
    }

    /// `reading` rounded to the precision of `established` (the measurement as first published), if there is
    /// one: a report with more decimal places than the first is published in the first one's format, and one that
    /// only differs beyond them is no change.
    static func keepingPrecision(
        of established: DeviceState.Measurement?, _ reading: DeviceState.Measurement
    ) -> DeviceState.Measurement {
        guard let established, established.precision != reading.precision else { return reading }
        let (precision, scale) = decimals(established.precision)
        return DeviceState.Measurement(value: (reading.value * scale).rounded() / scale, precision: precision)
    }

    /// A precision as published (0-6 decimal places) and 10 to its power.
    static func decimals(_ precision: Int) -> (Int, Double) {
        let precision = max(0, min(precision, 6))
        var scale = 1.0
        for _ in 0..<precision { scale *= 10 }
        return (precision, scale)
    }

    /// A number as short as it can be written: `8`, `21.5`.
    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// A decimal with the device's precision: `53.6`, `2.50`.
    static func decimal(_ measurement: DeviceState.Measurement) -> String {
        let (precision, scale) = decimals(measurement.precision)
        let scaled = (measurement.value * scale).rounded()
        let negative = scaled < 0
        let digits = String(Int64(abs(scaled)))
        guard precision > 0 else { return (negative ? "-" : "") + digits }
        let padded = String(repeating: "0", count: max(0, precision + 1 - digits.count)) + digits
        let split = padded.index(padded.endIndex, offsetBy: -precision)
        return (negative ? "-" : "") + padded[..<split] + "." + padded[split...]
    }
}
