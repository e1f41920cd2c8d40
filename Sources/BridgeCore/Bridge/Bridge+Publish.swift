internal import Logging

/// The hardware → MQTT flow: a `HardwareEvent` (copied out of the library's callback) → registry
/// update → topic mapping → retained publish of what changed.
extension Bridge {
    /// Applies one hardware event and publishes what it changed.
    public func apply(_ event: HardwareEvent) async {
        switch event {
        case .update(let source, let update):
            guard let device = registry.device(for: source) else {
                logger.debug("update for an unmapped source", metadata: ["source": "\(source)"])
                return
            }
            await apply(update, to: device)
        case .availability(let source, let online):
            // A Z-Wave node's availability covers every configured device of the node, whatever its endpoints
            // (a PowerNode configured as sockets 2-6 has no device at the node itself).
            let members: [DeviceDescriptor]
            if case .zwave(let node, _) = source {
                members = registry.devices(ofNode: node)
            } else {
                members = registry.device(for: source).map { [$0] } ?? []
            }
            // One event per fact: the library may report a dead (or live) node again (OpenZWave marks a node dead
            // on every failed send once it has three errors); only a change is published.
            guard members.contains(where: { registry.state(of: $0.address).online != online }) else { return }
            for member in members {
                registry.update(member.address) { $0.online = online }
                await publishAvailability(member)
            }
            await publish(event: .nodeAvailability(source, online: online, devices: members.map(\.address)))
        case .adapterAvailability(let adapter, let online, let reason):
            // An adapter starts offline; its first failure (e.g. a stick that never answers) is still reported,
            // and `adapter_recovered` follows only a reported loss.
            let wasOnline = adapterOnline[adapter] == true
            guard online != wasOnline || (!online && !adaptersLost.contains(adapter)) else { return }
            adapterOnline[adapter] = online
            let recovered = online && adaptersLost.remove(adapter) != nil
            if !online { adaptersLost.insert(adapter) }
            for device in registry.devices(onAdapter: adapter) { await publishAvailability(device) }
            if recovered {
                await publish(event: .adapterRecovered(adapter))
            } else if !online {
                await publish(event: .adapterLost(adapter, reason: reason))
            }
            noteIfSettled()
        case .scene(let node, let instance, let sceneID):
            await publishScene(node: node, instance: instance, sceneID: sceneID)
        case .discovered(let descriptor):
            guard registry.device(for: descriptor.source) == nil else { return }
            registry.add(descriptor)
            await publishAvailability(descriptor)
            await publishInventory()
        case .identified(let source, let kind, let metered):
            guard let device = registry.device(for: source), device.kind != kind || device.metered != metered else {
                return
            }
            registry.add(
                DeviceDescriptor(
                    address: device.address, kind: kind, source: device.source, metered: metered,
                    inputs: device.inputs, configured: device.configured))
            await publishInventory()
        case .details(let source, let fields):
            details[source] = fields
            await publishInventory()
        case .removed(let source):
            guard let device = registry.remove(source) else { return }
            let topics = identity.topics.device(device.address)
            for topic in topics.retained { await mqtt.publish(topic: topic, payload: [], retain: true) }
            await publishInventory()
        case .event(let event):
            await publish(event: event)
        case .network(let adapter, let id):
            networks[adapter] = id
            await notifyFrontEnds()
        case .networkQueried(let adapter):
            networksQueried.insert(adapter)
            await notifyFrontEnds()
            noteIfSettled()
        }
    }

    /// Yields on ``settled`` when every adapter has just settled: reported lost, or online and (Z-Wave) its
    /// network queried. Once at start-up, and again when a stick that was missing at start-up has its network queried.
    func noteIfSettled() {
        let now = backends.keys.allSatisfy { adapter in
            adaptersLost.contains(adapter)
                || (adapterOnline[adapter] == true && (adapter != .zwave || networksQueried.contains(adapter)))
        }
        if now && !isSettled { settledContinuation.yield() }
        isSettled = now
    }

    func apply(_ update: HardwareEvent.StateUpdate, to device: DeviceDescriptor) async {
        let topics = identity.topics.device(device.address)
        let before = registry.state(of: device.address)
        registry.update(device.address) { state in
            switch update {
            case .isOn(let on): state.isOn = on
            case .level(let level):
                state.level = level
                state.isOn = level > 0
                if level > 0 { state.lastOnLevel = level }
            // One format from the first report: a later report keeps the precision the first one was published with.
            case .power(let watts): state.power = Self.keepingPrecision(of: state.power, watts)
            case .energy(let kWh): state.energy = Self.keepingPrecision(of: state.energy, kWh)
            case .volume(let volume): state.volume = volume
            case .muted(let muted): state.muted = muted
            case .input(let address): state.input = address
            }
        }
        let after = registry.state(of: device.address)
        // Retained states are republished even when unchanged only if they were never published.
        switch update {
        case .isOn, .level:
            guard after.isOn != before.isOn || after.level != before.level || !published.contains(topics.state) else {
                return
            }
            await publishState(topics.state, Self.statePayload(after, kind: device.kind))
        case .power:
            guard let power = after.power, after.power != before.power || !published.contains(topics.power) else {
                return
            }
            await publishState(topics.power, Self.decimal(power))
        case .energy:
            guard let energy = after.energy, after.energy != before.energy || !published.contains(topics.energy) else {
                return
            }
            await publishState(topics.energy, Self.decimal(energy))
        case .volume(let volume):
            guard after.volume != before.volume || !published.contains(topics.volume) else { return }
            await publishState(topics.volume, String(volume))
        case .muted(let muted):
            guard after.muted != before.muted || !published.contains(topics.mute) else { return }
            await publishState(topics.mute, muted ? "on" : "off")
        case .input(let address):
            guard after.input != before.input || !published.contains(topics.input) else { return }
            let name = device.inputs.first { $0.value == address }?.key
            await publishState(topics.input, name ?? address)
        }
    }

    func publishState(_ topic: String, _ payload: String) async {
        published.insert(topic)
        stats.statesPublished += 1
        await mqtt.publish(topic: topic, text: payload, retain: true)
    }

    func publishAvailability(_ device: DeviceDescriptor) async {
        let online = adapterOnline[device.source.adapter] == true && registry.state(of: device.address).online
        await mqtt.publish(
            topic: identity.topics.device(device.address).availability, text: online ? "online" : "offline",
            retain: true)
    }

    /// A node's devices share its availability (all PowerNode sockets die together).
    func sourceGroup(of device: DeviceDescriptor) -> [DeviceDescriptor] {
        if case .zwave(let node, _) = device.source { return registry.devices(ofNode: node) }
        return [device]
    }

    func publishScene(node: Int, instance: Int?, sceneID: Int) async {
        if let device = registry.device(for: .zwave(node: node, instance: instance))
            ?? registry.devices(ofNode: node).first
        {
            await mqtt.publish(
                topic: identity.topics.device(device.address).scene, text: String(sceneID), retain: false)
        }
        for mapping in scenes
        where mapping.node == node && mapping.scene == sceneID
            && (mapping.instance == nil || mapping.instance == instance)
        {
            await mqtt.publish(topic: mapping.topic, text: mapping.payload, retain: false)
        }
    }

    /// The retained inventory on `<prefix>/bridge/<bridge>/devices`.
    /// Published only when it changed (an interview step that changes nothing publishes nothing).
    func publishInventory() async {
        let text = inventory().serialized
        guard text != lastInventory else { return }
        lastInventory = text
        await mqtt.publish(topic: identity.topics.bridgeDevices, text: text, retain: true)
        await notifyFrontEnds()
    }

    /// Tells the front ends the inventory, when it changed since they last saw it.
    func notifyFrontEnds() async {
        guard !frontEnds.isEmpty else { return }
        let inventory = frontEndSnapshot()
        guard inventory != frontEndInventory else { return }
        frontEndInventory = inventory
        for frontEnd in frontEnds { await frontEnd.inventoryChanged(inventory) }
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
        let open: Set<Adapter> = backends[.zwave] != nil && !networksQueried.contains(.zwave) ? [.zwave] : []
        return BridgeInventory(
            identity: identity, devices: devices, networks: networks,
            complete: Set(Adapter.allCases).subtracting(open))
    }

    /// Publishes again every device's availability and every state it has reported, and the bridge's own
    /// `online` (for a consumer that lost them, such as a restarted Home Assistant; retained anyway).
    public func republishStates() async {
        await mqtt.publish(topic: identity.topics.bridgeState, text: "online", retain: true)
        for device in registry.all {
            await publishAvailability(device)
            let topics = identity.topics.device(device.address)
            let state = registry.state(of: device.address)
            for (topic, payload) in Self.statePayloads(state, of: device, topics: topics) {
                await mqtt.publish(topic: topic, text: payload, retain: true)
            }
        }
    }

    /// Every retained state topic of `device` with a known value, with its payload.
    static func statePayloads(_ state: DeviceState, of device: DeviceDescriptor, topics: TopicScheme.Device)
        -> [(String, String)]
    {
        var payloads: [(String, String)] = []
        if state.isOn != nil || state.level != nil {
            payloads.append((topics.state, statePayload(state, kind: device.kind)))
        }
        if let power = state.power { payloads.append((topics.power, decimal(power))) }
        if let energy = state.energy { payloads.append((topics.energy, decimal(energy))) }
        if let volume = state.volume { payloads.append((topics.volume, String(volume))) }
        if let muted = state.muted { payloads.append((topics.mute, muted ? "on" : "off")) }
        if let input = state.input {
            payloads.append((topics.input, device.inputs.first { $0.value == input }?.key ?? input))
        }
        return payloads
    }

    func inventory() -> JSONValue {
        .array(
            registry.all.map { device in
                let state = registry.state(of: device.address)
                var fields: [(String, JSONValue)] = [
                    ("topic", .string(identity.topics.device(device.address).state)),
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
                fields.append(("configured", .bool(device.configured)))
                fields.append(("alive", .bool(state.online && adapterOnline[device.source.adapter] == true)))
                let nodeSource: DeviceSource? =
                    if case .zwave(let node, _) = device.source { .zwave(node: node, instance: nil) } else { nil }
                fields.append(contentsOf: details[device.source] ?? nodeSource.flatMap { details[$0] } ?? [])
                return .object(fields)
            })
    }

    static func statePayload(_ state: DeviceState, kind: DeviceKind) -> String {
        switch kind {
        case .dimmer: String(state.level ?? 0)
        case .binarySwitch, .socket: state.isOn == true ? "on" : "off"
        case .tv: state.isOn.map { $0 ? "on" : "standby" } ?? "unknown"
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

    /// A decimal with the device's precision: `53.6`, `2.50`.
    public static func decimal(_ measurement: DeviceState.Measurement) -> String {
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
