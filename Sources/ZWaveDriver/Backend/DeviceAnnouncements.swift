internal import BridgeCore

/// The devices the Z-Wave event stream announced: those of devices.toml it identified (with their kind and whether
/// their node is metered) and the unassigned ones it discovered; a node's devices are removed as it leaves the
/// network.
///
/// Shares the `ZWaveBackendActor` with `ZWaveBackend`, which composes it.
@ZWaveBackendActor
final class DeviceAnnouncements {
    let configured: [ZWaveDeviceConfig]
    let router: EventRouter
    private var identified: Set<DeviceSource> = []
    private var discovered: Set<DeviceSource> = []
    /// What each identified or discovered device is, and the nodes that have a Meter (every device of such a node
    /// is metered: a PowerNode reports all its sockets' meters on instance 1).
    private var kinds: [DeviceSource: DeviceKind] = [:]
    private var meteredNodes: Set<Int> = []
    /// Which buttons are held (their repeated `held` reports are published once).
    private var buttonHolds = ButtonHoldFilter()

    nonisolated init(configured: [ZWaveDeviceConfig], router: EventRouter) {
        self.configured = configured
        self.router = router
    }

    /// A Switch Multilevel, Switch Binary or Door Lock value tells what a device is (a Switch Multilevel makes it
    /// `multilevel`: a dimmer, or a cover on a motor-control node; a Door Lock a lock), an electric Meter value that
    /// the node's devices are metered; nodes not in devices.toml appear as `unassigned/node<N>[_<instance>]`.
    func identify(_ value: ZWaveValue, multilevel: DeviceKind = .dimmer) {
        let id = value.id
        let node = Int(id.node.rawValue)
        let thermostat = ZWaveThermostatMapping.isThermostatValue(commandClass: id.commandClass, index: id.index)
        guard value.id.index == 0 || id.commandClass == CommandClass.meter || thermostat else { return }
        let nodeConfigured = configured.contains { $0.node == node }
        switch id.commandClass {
        case CommandClass.switchMultilevel, CommandClass.switchBinary, CommandClass.doorLock,
            _ where thermostat:
            let multiChannel = id.commandClass == CommandClass.switchBinary && id.instance > 1
            let kind: DeviceKind =
                if thermostat {
                    .thermostat
                } else {
                    switch id.commandClass {
                    case CommandClass.switchMultilevel: multilevel
                    case CommandClass.doorLock: .lock
                    default: multiChannel ? .socket : .binarySwitch
                    }
                }
            if nodeConfigured {
                let source = DeviceSource.zwave(node: node, instance: Int(id.instance))
                if identified.insert(source).inserted || Self.upgrades(kinds[source], to: kind) {
                    let instanceConfigured = configured.contains { $0.node == node && $0.instance != nil }
                    let kind = instanceConfigured && kind == .binarySwitch ? DeviceKind.socket : kind
                    kinds[source] = kind
                    router.yield(.identified(source, kind: kind, metered: meteredNodes.contains(node)))
                }
            } else if id.commandClass == CommandClass.switchBinary || id.instance == 1 {
                let instance: Int? = id.instance > 1 || multiChannel ? Int(id.instance) : nil
                let source = DeviceSource.zwave(node: node, instance: instance)
                guard discovered.insert(source).inserted else {
                    // A node discovered by its sensors or buttons turns out to have a switch too (or a thermostat's
                    // valve, a setpoint).
                    guard Self.upgrades(kinds[source], to: kind) else { return }
                    kinds[source] = kind
                    router.yield(.identified(source, kind: kind, metered: meteredNodes.contains(node)))
                    return
                }
                kinds[source] = kind
                router.yield(
                    .discovered(
                        DeviceDescriptor(
                            address: TopicScheme.unassignedAddress(node: node, instance: instance), kind: kind,
                            source: source, metered: meteredNodes.contains(node), configured: false)))
            }
        case CommandClass.meter where !(16..<256).contains(id.index):  // electric: gas, water... are sensors
            guard meteredNodes.insert(node).inserted else { return }
            // The node's own devices, the node itself before its endpoints (compared as numbers).
            let devices = kinds.filter { $0.key.node == node }.map { (source: $0.key, kind: $0.value) }
            for (source, kind) in devices.sorted(by: { ($0.source.endpoint ?? 0) < ($1.source.endpoint ?? 0) }) {
                router.yield(.identified(source, kind: kind, metered: true))
            }
        default:
            break
        }
    }

    /// Whether a device known as `known` becomes `kind`: a sensor device by its first switch or thermostat value, a
    /// dimmer (a radiator valve's Switch Multilevel, found first) by a thermostat value.
    static func upgrades(_ known: DeviceKind?, to kind: DeviceKind) -> Bool {
        isProvisional(known) || (known == .dimmer && kind == .thermostat)
    }

    /// A thermostat value of `node` (on endpoint `instance`) revealed `traits` of its device (identified by the
    /// value already), for the bridge to add to what it knew.
    func thermostatFound(_ traits: ThermostatTraits, node: Int, instance: Int) {
        router.yield(.thermostatFound(.zwave(node: node, instance: instance), traits))
    }

    /// A value of `node` (on endpoint `instance`) revealed `sensors`. A node with no device known yet becomes a
    /// sensor device (configured: identified as one; else `unassigned/node<N>`), which a switch value found later
    /// makes a dimmer or switch; then the sensors are announced, for the bridge to add to the device's.
    func sensorsFound(_ sensors: [Sensor: String], node: Int, instance: Int) {
        if !kinds.keys.contains(where: { $0.node == node }) { announce(node: node, as: .sensor) }
        router.yield(.sensorsFound(.zwave(node: node, instance: instance), sensors))
    }

    /// A value of `node` (on endpoint `instance`) revealed scene buttons (Central Scene). A node with no device known
    /// yet, or known only by its sensors (a battery), becomes a `buttons` device; one of another kind (a dimmer)
    /// keeps it; then the buttons are announced, for the bridge to add to the device's.
    func buttonsFound(_ buttons: [Int: [ButtonAction]], node: Int, instance: Int) {
        let known = kinds.filter { $0.key.node == node }
        if known.allSatisfy({ $0.value == .sensor }) { announce(node: node, as: .buttons) }
        router.yield(.buttonsFound(.zwave(node: node, instance: instance), buttons))
    }

    /// Makes `node`, which has no device of a switch kind, a device of `kind` (`sensor`, `buttons`): configured, its
    /// root identified as one; else its `unassigned/node<N>` device, discovered now or identified anew.
    private func announce(node: Int, as kind: DeviceKind) {
        let metered = meteredNodes.contains(node)
        if configured.contains(where: { $0.node == node }) {
            let root = DeviceSource.zwave(node: node, instance: 1)
            identified.insert(root)
            kinds[root] = kind
            router.yield(.identified(root, kind: kind, metered: metered))
            return
        }
        let source = DeviceSource.zwave(node: node, instance: nil)
        kinds[source] = kind
        guard discovered.insert(source).inserted else {
            router.yield(.identified(source, kind: kind, metered: metered))
            return
        }
        router.yield(
            .discovered(
                DeviceDescriptor(
                    address: TopicScheme.unassignedAddress(node: node, instance: nil), kind: kind, source: source,
                    metered: metered, configured: false)))
    }

    /// A button of `node` reported `action` (nil: OpenZWave reset its scene to inactive): the action is published,
    /// a held button's repeated `held` once (``ButtonHoldFilter``).
    func buttonReported(_ action: ButtonAction?, button: Int, node: Int, instance: Int) {
        let owner = node << 8 | instance
        guard let action else {
            buttonHolds.clear(owner: owner, button: button)
            return
        }
        guard let published = buttonHolds.report(action, owner: owner, button: button) else { return }
        router.yield(.button(.zwave(node: node, instance: instance), button: button, published))
    }

    /// A kind a later value may change: a device known by its sensors or buttons only becomes a dimmer or switch.
    private static func isProvisional(_ kind: DeviceKind?) -> Bool { kind == .sensor || kind == .buttons }

    /// Whether `node` has a device: configured in devices.toml or discovered.
    func hasDevice(node number: Int) -> Bool {
        configured.contains(where: { $0.node == number }) || discovered.contains(where: { $0.node == number })
    }

    /// Announces `node`, whose interview did not finish, as `unassigned/node<N>` of `kind`.
    func discoverUnfinished(node number: Int, kind: DeviceKind) {
        let source = DeviceSource.zwave(node: number, instance: nil)
        discovered.insert(source)
        router.yield(
            .discovered(
                DeviceDescriptor(
                    address: TopicScheme.unassignedAddress(node: number, instance: nil), kind: kind, source: source,
                    configured: false)))
    }

    /// Removes every device of `number` (configured or unassigned), so the bridge clears its retained topics and
    /// updates the inventory.
    func remove(node number: Int) {
        var sources = discovered.filter { $0.node == number }
        for device in configured where device.node == number { sources.insert(device.source) }
        for source in sources.sorted(by: { $0.description < $1.description }) {
            router.yield(.removed(source))
        }
        discovered = discovered.filter { $0.node != number }
        identified = identified.filter { $0.node != number }
        kinds = kinds.filter { $0.key.node != number }
        meteredNodes.remove(number)
    }
}
