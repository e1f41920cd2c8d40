internal import Logging

/// The hardware → MQTT flow: a `HardwareEvent` (copied out of the library's callback) → registry update → topic
/// mapping → what changed, as retained states, availability, events and the inventory.
///
/// Owns the device registry (descriptors and states), which adapters are online, and what was published; it
/// decides what to send and puts it in an ``Outbox``, which `Bridge` sends.
struct StatePublisher: Sendable {
    let topics: TopicScheme
    let identity: BridgeIdentity
    let logger: Logger
    let scenes: [ZWaveSceneConfig]
    /// `[[zwave.button]]`: extra publishes of button actions.
    let buttonMappings: [ZWaveButtonConfig]
    /// The adapters this bridge has a backend for.
    let adapters: Set<Adapter>
    /// Whether front ends follow the inventory.
    let hasFrontEnds: Bool
    /// `[zwave] low_battery`: a battery below this many percent is low (`battery_low`, `low_battery`).
    let lowBattery: Int
    private(set) var registry: DeviceRegistry
    /// Whether each configured adapter is online.
    private(set) var adapterOnline: [Adapter: Bool]
    /// Adapters whose loss was reported (`adapter_lost`) and not yet followed by `adapter_recovered`.
    private var adaptersLost: Set<Adapter> = []
    /// Z-Wave nodes asleep now (a device discovered later starts `asleep`).
    private var sleepingNodes: Set<Int> = []
    /// Retained state topics published at least once by this process.
    private var published: Set<String> = []
    /// Each cover's movement as last published, by topic (a level may change before the target that tells it).
    private var movements: [String: String] = [:]
    /// Extra inventory fields per device (manufacturer, product, interview stage).
    var details: [DeviceSource: [(String, JSONValue)]] = [:]
    /// The inventory as last published.
    var lastInventory: String?
    /// Network ids by adapter (the Z-Wave home id), and the adapters that reported their whole network.
    var networks: [Adapter: String] = [:]
    var networksQueried: Set<Adapter> = []
    /// The inventory as the front ends last saw it.
    var frontEndInventory: BridgeInventory?
    /// How many retained states were published.
    private(set) var statesPublished = 0

    init(
        identity: BridgeIdentity, devices: [DeviceDescriptor], scenes: [ZWaveSceneConfig], adapters: Set<Adapter>,
        hasFrontEnds: Bool, lowBattery: Int = ZWaveSection.defaultLowBattery, buttons: [ZWaveButtonConfig] = [],
        logger: Logger
    ) {
        self.buttonMappings = buttons
        self.lowBattery = lowBattery
        self.identity = identity
        self.topics = identity.topics
        self.registry = DeviceRegistry(devices)
        self.scenes = scenes
        self.adapters = adapters
        self.hasFrontEnds = hasFrontEnds
        self.logger = logger
        self.adapterOnline = Dictionary(uniqueKeysWithValues: adapters.map { ($0, false) })
    }

    /// Whether `adapter` is configured and online.
    func isOnline(_ adapter: Adapter) -> Bool { adapterOnline[adapter] == true }

    /// The start: every device's availability (`offline` until its adapter reports it) and the inventory.
    mutating func start(into out: inout Outbox) {
        for device in registry.all { publishAvailability(device, into: &out) }
        publishInventory(into: &out)
    }

    /// Applies one hardware event; what it changed goes to `out`.
    mutating func apply(_ event: HardwareEvent, into out: inout Outbox) {
        switch event {
        case .update(let source, let update):
            guard let device = sensorOwner(source, update) else {
                logger.debug("update for an unmapped source", metadata: ["source": "\(source)"])
                return
            }
            // A reading of a sensor the device does not have (a Notification's "Clear" ends every sensor of its type).
            if case .sensor(let sensor, _) = update, device.sensors[sensor] == nil { return }
            apply(update, to: device, into: &out)
        case .availability(let source, let online):
            let members = availabilityMembers(source)
            // One event per fact: the library may report a dead (or live) node again (OpenZWave marks a node dead
            // on every failed send once it has three errors); only a change is published.
            guard members.contains(where: { registry.state(of: $0.address).online != online }) else { return }
            for member in members {
                registry.update(member.address) { $0.online = online }
                publishAvailability(member, into: &out)
            }
            out.event(.nodeAvailability(source, online: online, devices: members.map(\.address)))
        case .sleeping(let source, let asleep):
            // Not an event: a battery node sleeps and wakes many times a day; its retained availability says it.
            if let node = source.zwaveNode {
                if asleep { sleepingNodes.insert(node) } else { sleepingNodes.remove(node) }
            }
            let members = availabilityMembers(source)
            guard members.contains(where: { registry.state(of: $0.address).asleep != asleep }) else { return }
            for member in members {
                registry.update(member.address) { $0.asleep = asleep }
                publishAvailability(member, into: &out)
            }
        case .adapterAvailability(let adapter, let online, let reason):
            // An adapter starts offline; its first failure (e.g. a stick that never answers) is still reported,
            // and `adapter_recovered` follows only a reported loss.
            let wasOnline = adapterOnline[adapter] == true
            guard online != wasOnline || (!online && !adaptersLost.contains(adapter)) else { return }
            adapterOnline[adapter] = online
            let recovered = online && adaptersLost.remove(adapter) != nil
            if !online { adaptersLost.insert(adapter) }
            for device in registry.devices(onAdapter: adapter) { publishAvailability(device, into: &out) }
            if recovered {
                out.event(.adapterRecovered(adapter))
            } else if !online {
                out.event(.adapterLost(adapter, reason: reason))
            }
        case .scene(let node, let instance, let sceneID):
            publishScene(node: node, instance: instance, sceneID: sceneID, into: &out)
        case .discovered(let descriptor):
            guard registry.device(for: descriptor.source) == nil else { return }
            registry.add(descriptor)
            // A node may fall asleep before its values make it a device.
            if let node = descriptor.source.zwaveNode, sleepingNodes.contains(node) {
                registry.update(descriptor.address) { $0.asleep = true }
            }
            publishAvailability(descriptor, into: &out)
            publishInventory(into: &out)
        case .identified(let source, let kind, let metered):
            guard let device = registry.device(for: source),
                device.kind != kind || device.metered != metered || !device.kindKnown
            else { return }
            registry.add(device.identified(as: kind, metered: metered))
            publishInventory(into: &out)
        case .sensorsFound(let source, let sensors):
            guard let device = sensorOwner(source) else { return }
            // A battery comes with its low-battery flag, which the bridge derives from the level.
            let found = sensors[.battery] == nil ? sensors : sensors.merging([.batteryLow: ""]) { $1 }
            let added = device.adding(sensors: found)
            guard added.sensors != device.sensors else { return }
            registry.add(added)
            publishInventory(into: &out)
        case .thermostatFound(let source, let traits):
            guard let device = sensorOwner(source) else { return }
            let added = device.adding(thermostat: traits)
            guard added.thermostat != device.thermostat else { return }
            registry.add(added)
            publishInventory(into: &out)
        case .buttonsFound(let source, let buttons):
            guard let device = sensorOwner(source) else { return }
            let added = device.adding(buttons: buttons)
            guard added.buttons != device.buttons else { return }
            registry.add(added)
            publishInventory(into: &out)
        case .button(let source, let button, let action):
            publishButton(button, action, of: source, into: &out)
        case .details(let source, let fields):
            details[source] = fields
            publishInventory(into: &out)
        case .removed(let source):
            guard let device = registry.remove(source) else { return }
            let deviceTopics = topics.device(device.address)
            movements[deviceTopics.movement] = nil
            for topic in deviceTopics.retained + device.sensors.keys.sorted().map(deviceTopics.sensor) {
                out.publish(topic, payload: [], retain: true)
            }
            publishInventory(into: &out)
        case .event(let event):
            out.event(event)
        case .network(let adapter, let id):
            networks[adapter] = id
            notifyFrontEnds(into: &out)
        case .networkQueried(let adapter):
            networksQueried.insert(adapter)
            notifyFrontEnds(into: &out)
        }
    }

    private mutating func apply(
        _ update: HardwareEvent.StateUpdate, to device: DeviceDescriptor, into out: inout Outbox
    ) {
        let topics = self.topics.device(device.address)
        let before = registry.state(of: device.address)
        registry.update(device.address) { state in
            switch update {
            case .isOn(let on): state.isOn = on
            case .level(let level):
                state.level = level
                state.isOn = level > 0
                if level > 0 { state.lastOnLevel = level }
            case .target(let target): state.target = target
            case .lock(let lock): state.lock = lock
            // One format from the first report: a later report keeps the precision the first one was published with.
            case .power(let watts): state.power = Self.keepingPrecision(of: state.power, watts)
            case .energy(let kWh): state.energy = Self.keepingPrecision(of: state.energy, kWh)
            case .volume(let volume): state.volume = volume
            case .muted(let muted): state.muted = muted
            case .input(let address): state.input = address
            case .setpoint(let setpoint): state.setpoint = Self.keepingPrecision(of: state.setpoint, setpoint)
            case .mode(let mode): state.mode = mode
            case .operatingState(let operating): state.operatingState = operating
            case .sensor(let sensor, .measurement(let reading)):
                let established: DeviceState.Measurement? =
                    if case .measurement(let old) = state.sensors[sensor] { old } else { nil }
                state.sensors[sensor] = .measurement(Self.keepingPrecision(of: established, reading))
            case .sensor(let sensor, let reading): state.sensors[sensor] = reading
            }
        }
        let after = registry.state(of: device.address)
        // Retained states are republished even when unchanged only if they were never published.
        switch update {
        case .isOn where device.kind == .thermostat, .level where device.kind == .thermostat:
            break  // a radiator valve's opening: no state of a thermostat (its state is its mode)
        case .isOn, .level:
            if after.isOn != before.isOn || after.level != before.level || !published.contains(topics.state) {
                publishState(topics.state, Self.statePayload(after, kind: device.kind), into: &out)
            }
            // A device that reports its target reports it after the level (Switch Multilevel v4: one report, the
            // level first): its movement waits for the target, so a report of both is never half applied.
            if after.target == nil { publishMovement(of: device, after, into: &out) }
        case .target:
            publishMovement(of: device, after, into: &out)
        case .lock:
            guard device.kind == .lock, after.lock != before.lock || !published.contains(topics.state) else { return }
            publishState(topics.state, Self.statePayload(after, kind: device.kind), into: &out)
        case .power:
            guard let power = after.power, after.power != before.power || !published.contains(topics.power) else {
                return
            }
            publishState(topics.power, Self.decimal(power), into: &out)
        case .energy:
            guard let energy = after.energy, after.energy != before.energy || !published.contains(topics.energy) else {
                return
            }
            publishState(topics.energy, Self.decimal(energy), into: &out)
        case .setpoint:
            guard let setpoint = after.setpoint,
                after.setpoint != before.setpoint || !published.contains(topics.setpoint)
            else { return }
            publishState(topics.setpoint, Self.decimal(setpoint), into: &out)
        case .mode(let mode):
            // The state topic is the mode too.
            guard after.mode != before.mode || !published.contains(topics.mode) else { return }
            publishState(topics.mode, mode.rawValue, into: &out)
            publishState(topics.state, mode.rawValue, into: &out)
        case .operatingState(let operating):
            guard after.operatingState != before.operatingState || !published.contains(topics.operatingState) else {
                return
            }
            publishState(topics.operatingState, operating, into: &out)
        case .volume(let volume):
            guard after.volume != before.volume || !published.contains(topics.volume) else { return }
            publishState(topics.volume, String(volume), into: &out)
        case .muted(let muted):
            guard after.muted != before.muted || !published.contains(topics.mute) else { return }
            publishState(topics.mute, muted ? "on" : "off", into: &out)
        case .input(let address):
            guard after.input != before.input || !published.contains(topics.input) else { return }
            let name = device.inputs.first { $0.value == address }?.key
            publishState(topics.input, name ?? address, into: &out)
        case .sensor(let sensor, _):
            let topic = topics.sensor(sensor)
            guard let reading = after.sensors[sensor], reading != before.sensors[sensor] || !published.contains(topic)
            else { return }
            publishState(topic, Self.sensorPayload(sensor, reading), into: &out)
            if sensor == .battery, case .measurement(let level) = reading {
                applyBatteryLevel(Int(level.value.rounded()), to: device, into: &out)
            }
        }
    }

    /// A cover's movement (`<device>/movement`), from its level and target (``ZWaveCoverMapping/movement(level:target:)``),
    /// when it is not the one last published.
    private mutating func publishMovement(of device: DeviceDescriptor, _ state: DeviceState, into out: inout Outbox) {
        let topic = topics.device(device.address).movement
        guard device.kind == .cover,
            let movement = ZWaveCoverMapping.movement(level: state.level, target: state.target),
            movements[topic] != movement
        else { return }
        movements[topic] = movement
        publishState(topic, movement, into: &out)
    }

    /// A battery level: `battery_low` follows it (`on` below `lowBattery` %), and the crossing into low is a
    /// `low_battery` event (as is a first level that is low already).
    private mutating func applyBatteryLevel(_ level: Int, to device: DeviceDescriptor, into out: inout Outbox) {
        let low = level < lowBattery
        let wasLow = registry.state(of: device.address).sensors[.batteryLow] == .active(true)
        apply(.sensor(.batteryLow, .active(low)), to: device, into: &out)
        if low, !wasLow { out.event(.lowBattery(device: device.address, level: level)) }
    }

    /// The device a hardware source's event is for. A Z-Wave sensor of an endpoint that has no device of its own
    /// (a multi-channel sensor, a socket's temperature) belongs to the node's device.
    private func sensorOwner(_ source: DeviceSource, _ update: HardwareEvent.StateUpdate? = nil) -> DeviceDescriptor? {
        if let device = registry.device(for: source) { return device }
        switch (source, update) {
        case (.zwave(let node, _), .sensor?), (.zwave(let node, _), nil):
            return registry.device(for: .zwave(node: node, instance: nil))
        default:
            return nil
        }
    }

    private mutating func publishState(_ topic: String, _ payload: String, into out: inout Outbox) {
        published.insert(topic)
        statesPublished += 1
        out.publish(topic, payload, retain: true)
    }

    func publishAvailability(_ device: DeviceDescriptor, into out: inout Outbox) {
        out.publish(topics.device(device.address).availability, availability(of: device), retain: true)
    }

    /// `offline` (its adapter lost, or the node dead), `asleep` (a battery node between wake-ups) or `online`.
    func availability(of device: DeviceDescriptor) -> String {
        let state = registry.state(of: device.address)
        guard isOnline(device.source.adapter), state.online else { return "offline" }
        return state.asleep ? "asleep" : "online"
    }

    /// The devices an availability fact is about: a Z-Wave node's covers every configured device of the node,
    /// whatever its endpoints (a PowerNode configured as sockets 2-6 has no device at the node itself).
    private func availabilityMembers(_ source: DeviceSource) -> [DeviceDescriptor] {
        if case .zwave(let node, _) = source { return registry.devices(ofNode: node) }
        return registry.device(for: source).map { [$0] } ?? []
    }

    /// A node's devices share its availability (all PowerNode sockets die together).
    func sourceGroup(of device: DeviceDescriptor) -> [DeviceDescriptor] {
        if case .zwave(let node, _) = device.source { return registry.devices(ofNode: node) }
        return [device]
    }

    func publishScene(node: Int, instance: Int?, sceneID: Int, into out: inout Outbox) {
        if let device = registry.device(for: .zwave(node: node, instance: instance))
            ?? registry.devices(ofNode: node).first
        {
            out.publish(topics.device(device.address).scene, String(sceneID), retain: false)
        }
        for mapping in scenes
        where mapping.node == node && mapping.scene == sceneID
            && (mapping.instance == nil || mapping.instance == instance)
        {
            out.publish(mapping.topic, mapping.payload, retain: false)
        }
    }

    /// A button's action on `<device>/button/<n>` (the endpoint's device, else the node's), and the
    /// `[[zwave.button]]` publishes that match it; never retained.
    func publishButton(_ button: Int, _ action: ButtonAction, of source: DeviceSource, into out: inout Outbox) {
        if let device = sensorOwner(source) {
            out.publish(topics.device(device.address).button(button), action.rawValue, retain: false)
        }
        guard case .zwave(let node, let instance) = source else { return }
        for mapping in buttonMappings
        where mapping.node == node && mapping.button == button && mapping.action == action
            && (mapping.instance == nil || mapping.instance == instance)
        {
            out.publish(mapping.topic, mapping.payload, retain: false)
        }
    }
}
