internal import BridgeCore
internal import FoundationEssentials
internal import Logging
internal import SystemSupport

/// Hardware → bridge: each `ZWaveEvent` becomes `HardwareEvent`s (state updates, scenes, availability, devices
/// identified or discovered, node details), in the order the driver reported them.
extension ZWaveBackend {
    func handle(_ event: ZWaveEvent) async {
        switch event {
        case .controllerCommand(let update):
            sessions.update(update)
            mesh.neighbourUpdate(update)
        case .nodeNew(let node):
            sessions.saw(node)
        case .driverReady(let home, _):
            interview.driverReady()
            quirk.observe(.queriesStarted)
            router.yield(.network(adapter, id: String(home.description.dropFirst(2))))
            router.yield(.adapterAvailability(adapter: adapter, online: true, reason: "driver ready"))
        case .adapterRecovered:
            router.yield(.adapterAvailability(adapter: adapter, online: true, reason: "recovered"))
        case .adapterLost(let reason):
            router.yield(.adapterAvailability(adapter: adapter, online: false, reason: reason))
            reports.wakeAll()
        case .driverFailed, .driverRemoved:
            break  // the driver's supervision reports these as adapterLost
        case .valueAdded(let value):
            sleeping.noteValue(value)
            announced.identify(value, multilevel: await multilevelKind(value))
            await announceSensors(value)
            await announceThermostat(value, reported: false)
            await announceButtons(value)
            record(value, initial: true)
        case .valueChanged(let value):
            sleeping.noteValue(value)
            if value.id.commandClass == ZWaveThermostatMapping.thermostatSetpoint,
                value.id.index == ZWaveThermostatMapping.heatingIndex
            {
                await announceThermostat(value, reported: true)  // the precision the device reports in
            }
            reportButton(value)
            record(value, initial: false)
            configuration.noteReport(value)
        case .valueRefreshed(let value):
            // A button used again the same way within OpenZWave's reset time (1 s) is a refresh of the same value.
            reportButton(value)
            record(value, initial: false)
            configuration.noteReport(value)
        case .sceneEvent(let node, let scene):
            router.yield(.scene(node: Int(node.rawValue), instance: nil, sceneID: Int(scene)))
        case .nodeDead(let node):
            router.yield(.availability(.zwave(node: Int(node.rawValue), instance: nil), online: false))
            reports.wakeWaiters(of: node)
        case .noOperationCompleted(let node):
            reports.reportArrived(MeshMonitor.noOperationKey(node))
        case .nodeAlive(let node):
            router.yield(.availability(.zwave(node: Int(node.rawValue), instance: nil), online: true))
        case .nodeAwake(let node):
            sleeping.awoke(node)
            await configuration.giveHeld(node)
        case .nodeAsleep(let node):
            sleeping.fellAsleep(node)
        case .nodeAdded(let node):
            interview.added(node)
            sessions.saw(node)
            await publishDetails(node)
        case .nodeProtocolInfo(let node), .nodeNaming(let node), .essentialQueriesComplete(let node):
            await publishDetails(node)
        case .nodeReady(let node):
            interview.ready(node)
            mesh.tableRead(node)
            await publishDetails(node)
            quirk.observe(.interviewCompleted(node))
            if configuration.takeOn(node) { interview.schedule(.applyConfiguration(node)) }
        case .nodeRemoved(let node) where interview.isReloading(node):
            logger.debug("node dropped and re-added by the re-interview", metadata: ["node": "\(node.rawValue)"])
        case .nodeRemoved(let node), .nodeReset(let node):
            removeNode(node)
        case .awakeNodesQueried, .allNodesQueried:
            interview.queried()
            quirk.observe(.queriesEnded)
            router.yield(.networkQueried(adapter))
        default:
            break
        }
    }

    /// Maps a value report to a state update, on the endpoint the node's quirk (if any) attributes it to, and counts
    /// it for the commands waiting for it. `initial`: the library created the value (from its cache or a default),
    /// no report was received: it is never published as the device's state (OpenZWave's placeholder is a `0`
    /// with no decimals, its cache holds the last value without its precision); the device's own report, which
    /// the library asks for at start-up, is the first state published, in the device's format.
    func record(_ value: ZWaveValue, initial: Bool) {
        let id = value.id
        if !initial {
            interview.noteSeen(id.node)
            sleeping.heard(id.node)
        }
        let updates = Self.stateUpdates(value)
        let report = ValueReport(
            value: value, initial: initial, publishable: !updates.isEmpty,
            nodeReady: interview.readyNodes.contains(id.node))
        var instance = id.instance
        switch quirk.attribute(report) {
        case .asReported:
            break
        case .instance(let attributed):
            instance = attributed
        case .withheld:
            reports.reportArrived(id.key)
            return
        case .ignored:
            return
        }
        let key = ZWaveValueKey(node: id.node, commandClass: id.commandClass, instance: instance, index: id.index)
        reports.reportArrived(key)
        guard !initial else { return }
        for update in updates {
            router.yield(.update(.zwave(node: Int(id.node.rawValue), instance: Int(instance)), update))
        }
    }

    /// The kind a node's Switch Multilevel value makes of its device: a thermostat when the node has Thermostat
    /// Setpoint or Mode (a radiator valve's opening is no dimmer, ``ZWaveThermostatMapping``), a cover when the node's
    /// device class is a motor control (``ZWaveCoverMapping``), else a dimmer. OpenZWave knows the node's command
    /// classes and device class before it creates the value (from its node information, or the network cache).
    func multilevelKind(_ value: ZWaveValue) async -> DeviceKind {
        guard value.id.commandClass == CommandClass.switchMultilevel, value.id.index == 0,
            let info = try? await driver.nodeInfo(value.id.node)
        else { return .dimmer }
        for commandClass in ZWaveThermostatMapping.commandClasses.sorted()
        where (try? await driver.commandClassVersion(value.id.node, commandClass)) != nil {
            return .thermostat
        }
        return ZWaveCoverMapping.multilevelKind(generic: info.generic, specific: info.specific)
    }

    /// Announces what a new thermostat value tells of its device (``ZWaveThermostatMapping/traits``): the setpoint's
    /// unit, precision and declared range (`zw_value_range`), its v3 capabilities, the supported modes
    /// (`zw_value_list_values`), an operating state. The precision only from a report (`reported`): a value the
    /// library created holds its cache's or configuration file's text (`20`), not the device's format.
    func announceThermostat(_ value: ZWaveValue, reported: Bool) async {
        let id = value.id
        let thermostatClasses = ZWaveThermostatMapping.commandClasses.union([
            ZWaveThermostatMapping.thermostatOperatingState
        ])
        guard thermostatClasses.contains(id.commandClass) else { return }
        var items: [Int] = []
        if id.commandClass == ZWaveThermostatMapping.thermostatMode, case .list = value.content {
            items = ((try? await driver.listValues(id)) ?? []).map(Int.init)
        }
        var declared: (minimum: Int, maximum: Int) = (0, 0)
        if id.commandClass == ZWaveThermostatMapping.thermostatSetpoint,
            id.index == ZWaveThermostatMapping.heatingIndex,
            let range = try? await driver.valueRange(id)
        {
            declared = (Int(range.minimum), Int(range.maximum))
        }
        let number: Double?
        let precision: Int?
        if case .decimal(let decimal, let places) = value.content {
            (number, precision) = (decimal, reported ? Int(places) : nil)
        } else {
            (number, precision) = (nil, nil)
        }
        guard
            let traits = ZWaveThermostatMapping.traits(
                commandClass: id.commandClass, index: id.index, units: value.units, precision: precision,
                value: number, listItems: items, declared: declared)
        else { return }
        announced.thermostatFound(traits, node: Int(id.node.rawValue), instance: Int(id.instance))
    }

    /// Announces the sensors a new value stands for (``ZWaveSensorMapping``); a Notification type's sensors are those
    /// of the events its list offers (`zw_value_list_values`).
    func announceSensors(_ value: ZWaveValue) async {
        let described = Self.sensorValue(value)
        guard ZWaveSensorMapping.commandClasses.contains(described.commandClass) else { return }
        var items: [Int] = []
        if described.commandClass == ZWaveSensorMapping.notification, case .list = value.content {
            items = ((try? await driver.listValues(value.id)) ?? []).map(Int.init)
        }
        let sensors = ZWaveSensorMapping.sensors(of: described, listItems: items)
        guard !sensors.isEmpty else { return }
        announced.sensorsFound(sensors, node: Int(value.id.node.rawValue), instance: Int(value.id.instance))
    }

    /// A value's state updates: a dimmer's level, a switch, a meter's W or kWh, or the sensor readings it gives.
    nonisolated static func stateUpdates(_ value: ZWaveValue) -> [HardwareEvent.StateUpdate] {
        if let update = stateUpdate(value) { return [update] }
        let described = sensorValue(value)
        if let update = ZWaveThermostatMapping.update(
            commandClass: described.commandClass, index: described.index, reading: described.reading)
        {
            return [update]
        }
        return ZWaveSensorMapping.readings(of: sensorValue(value)).map { .sensor($0.0, $0.1) }
    }

    /// A value as the generic sensor mapping reads it.
    nonisolated static func sensorValue(_ value: ZWaveValue) -> ZWaveSensorMapping.Value {
        let reading: ZWaveSensorMapping.Reading? =
            switch value.content {
            case .bool(let on): .bool(on)
            case .byte(let number): .integer(Int(number))
            case .short(let number): .integer(Int(number))
            case .int(let number): .integer(Int(number))
            case .decimal(let number, let precision): .decimal(number, precision: Int(precision))
            case .list(let item, _): .listItem(Int(item))
            case .string, .other, .unavailable: nil
            }
        return ZWaveSensorMapping.Value(
            commandClass: value.id.commandClass, index: value.id.index, label: value.label, units: value.units,
            reading: reading)
    }

    /// A Central Scene (0x5B) scene value: OpenZWave 1.6 has one list value per scene (button), its index the scene
    /// number, its items the key attributes the scene supports plus 1 (0 is its own "Inactive", to which it
    /// returns 1 s after a report); a report of the same sequence number again is dropped by the library. The
    /// button and its action (nil: inactive); nil for another value (index 0 is the scene count).
    nonisolated static func centralScene(_ value: ZWaveValue) -> (button: Int, action: ButtonAction?)? {
        guard value.id.commandClass == CommandClass.centralScene, value.id.index > 0, value.id.index < 256 else {
            return nil
        }
        let item: Int32
        switch value.content {
        case .list(let v, _): item = v
        case .int(let v): item = v
        case .byte(let v): item = Int32(v)
        default: return nil
        }
        return (Int(value.id.index), ButtonAction(keyAttribute: Int(item) - 1))
    }

    /// The actions of a scene value's list items (item `k + 1` is key attribute `k`); all of them when the list is
    /// unknown.
    nonisolated static func buttonActions(listItems: [Int]) -> [ButtonAction] {
        let actions = listItems.compactMap { ButtonAction(keyAttribute: $0 - 1) }.sorted()
        return actions.isEmpty ? ButtonAction.assumed : actions
    }

    /// Announces the button a new Central Scene scene value stands for, with the actions its list offers.
    func announceButtons(_ value: ZWaveValue) async {
        guard let (button, _) = Self.centralScene(value), case .list = value.content else { return }
        let items = ((try? await driver.listValues(value.id)) ?? []).map { Int($0) }
        announced.buttonsFound(
            [button: Self.buttonActions(listItems: items)], node: Int(value.id.node.rawValue),
            instance: Int(value.id.instance))
    }

    /// Publishes a Central Scene report as the button's action (``DeviceAnnouncements/buttonReported``).
    func reportButton(_ value: ZWaveValue) {
        guard let (button, action) = Self.centralScene(value) else { return }
        announced.buttonReported(
            action, button: button, node: Int(value.id.node.rawValue), instance: Int(value.id.instance))
    }

    /// The state update a value stands for: a dimmer's level (a cover's position), the level a Switch Multilevel v4
    /// heads for, a switch, a meter's W or kWh, a lock's state (``ZWaveLockMapping``); `nil` for the rest.
    nonisolated static func stateUpdate(_ value: ZWaveValue) -> HardwareEvent.StateUpdate? {
        let described = sensorValue(value)
        if let lock = ZWaveLockMapping.state(
            commandClass: described.commandClass, index: described.index, reading: described.reading)
        {
            return .lock(lock)
        }
        switch (value.id.commandClass, value.id.index, value.content) {
        case (CommandClass.switchMultilevel, 0, .byte(let level)): return .level(Int(min(level, 99)))
        case (CommandClass.switchMultilevel, ZWaveCoverMapping.targetValueIndex, .byte(let target)):
            return .target(Int(min(target, 99)))
        case (CommandClass.switchBinary, 0, .bool(let on)): return .isOn(on)
        case (CommandClass.meter, CommandClass.meterWattsIndex, .decimal(let watts, let precision)):
            return .power(DeviceState.Measurement(value: watts, precision: Int(precision)))
        case (CommandClass.meter, CommandClass.meterKWhIndex, .decimal(let kWh, let precision)):
            return .energy(DeviceState.Measurement(value: kWh, precision: Int(precision)))
        default: return nil
        }
    }

    /// Publishes what the library knows about `node` (identity, interview stage, last seen) and tells the quirk
    /// who the node is.
    func publishDetails(_ node: NodeID) async {
        guard let info = try? await driver.nodeInfo(node) else { return }
        quirk.observe(.identified(info))
        sleeping.identified(info)
        router.yield(
            .details(
                .zwave(node: Int(node.rawValue), instance: nil),
                NodeDetails(
                    manufacturer: info.manufacturerName, product: info.productName, manufacturerID: info.manufacturerID,
                    productType: info.productType, productID: info.productID, interviewStage: info.queryStage,
                    lastSeen: interview.publishingLastSeen(node)?.timeIntervalSince1970)))
    }

    /// A node left the network: every device of it (configured or unassigned) is removed, so the bridge
    /// clears its retained topics and updates the inventory.
    ///
    /// During an exclusion or a failed-node removal the node is that request's: `ControllerSessions` claims it, so the
    /// removal goes through the request's sink, and the request is answered only once the removal was reported there
    /// (OpenZWave reports an exclusion's `Completed` before the node's `Type_NodeRemoved`).
    func removeNode(_ node: NodeID) {
        sessions.removing(node)
        announced.remove(node: Int(node.rawValue))
        interview.removed(node)
        sleeping.removed(node)
        configuration.wakeUpQueue.removed(node: Int(node.rawValue))
        quirk.observe(.removed(node))
        router.emit(.nodeRemoved(node: Int(node.rawValue)))
        sessions.removed(node)
    }
}
