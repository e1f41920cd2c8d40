public import BridgeCore
internal import Logging

/// Bridge → hardware: a device command becomes a Set (or a refresh) handed to OpenZWave, confirmed by the device's
/// report; the node's quirk (if any) frames switch commands and refreshes.
extension ZWaveBackend {
    public nonisolated func execute(_ command: DeviceCommand, on device: DeviceDescriptor) async throws(CommandFailure)
    {
        guard case .zwave(let node, let instance) = device.source, let nodeID = UInt8(exactly: node) else {
            throw CommandFailure("\(device.address) is not a Z-Wave device")
        }
        // Inclusion freezes the library's normal traffic: hold the command until it ends (it always
        // ends, by completion, cancel or its timeout); the bridge's queue coalesces what arrives meanwhile.
        // A held command fails when the bridge stops (`bridge stopping`), never sent blind.
        try await sessions.waitUntilControllerIdle()
        try await perform(command, node: NodeID(nodeID), instance: UInt8(instance ?? 1), device: device)
    }

    /// Hands a level (Switch Multilevel) or switch (Switch Binary) Set to OpenZWave, which queues it for its
    /// driver thread. Returns the value whose report confirms it and that value's generation before the Set;
    /// `nil` (nothing done) for any other command.
    func set(_ command: DeviceCommand, node: NodeID, instance: UInt8) async throws(CommandFailure)
        -> PendingConfirmation?
    {
        guard let key = Self.setKey(command, node: node, instance: instance) else { return nil }
        let before = reports.generation(of: key)
        do {
            if case .level(let level) = command {
                try await driver.setLevel(node: node, instance: instance, level: UInt8(clamping: level))
            } else if case .setLocked(let locked) = command {
                try await driver.setLocked(node: node, instance: instance, locked: locked)
            } else {
                try await driver.setSwitch(node: node, instance: instance, on: command == .on)
            }
        } catch {
            throw CommandFailure("\(error)")
        }
        return PendingConfirmation(key: key, before: before)
    }

    /// The value a level (Switch Multilevel), switch (Switch Binary) or lock (Door Lock) command sets; nil for other
    /// commands.
    nonisolated static func setKey(_ command: DeviceCommand, node: NodeID, instance: UInt8) -> ZWaveValueKey? {
        let commandClass: UInt8
        var index: UInt16 = 0
        switch command {
        case .level: commandClass = CommandClass.switchMultilevel
        case .on, .off: commandClass = CommandClass.switchBinary
        case .setLocked: commandClass = CommandClass.doorLock
        case .setpoint:
            commandClass = ZWaveThermostatMapping.thermostatSetpoint
            index = ZWaveThermostatMapping.heatingIndex
        case .mode: commandClass = ZWaveThermostatMapping.thermostatMode
        default: return nil
        }
        return ZWaveValueKey(node: node, commandClass: commandClass, instance: instance, index: index)
    }

    /// How long a Set waits for OpenZWave to learn the value it sets (a node early in its interview, after a start
    /// without the network cache).
    static let valueWaitLimit: Duration = .seconds(60)

    /// How long a Set to a node OpenZWave has not listed yet waits for it, just after the driver became ready.
    static let nodeListWait: Duration = .seconds(10)

    /// A node early in its interview (a start without the network cache) has no value for a Set yet, though the
    /// device is online: the command waits for the value (its creation counts as a report) instead of failing, at
    /// most `valueWaitLimit`; a lost adapter or a dead node ends the wait (the Set then fails with its reason). Just
    /// after the driver became ready, OpenZWave lists the nodes one by one: a Set to a node not listed yet waits for
    /// it, at most `nodeListWait` and only until the network is queried. A node the network does not have, or one
    /// whose interview is over, fails then.
    func awaitValue(for command: DeviceCommand, node: NodeID, instance: UInt8) async {
        guard let key = Self.setKey(command, node: node, instance: instance), await !driver.knowsValue(key) else {
            return
        }
        let listed = ContinuousClock.now.advanced(by: Self.nodeListWait)
        while !interview.knownNodes.contains(node), !interview.networkQueried, ContinuousClock.now < listed {
            try? await Task.sleep(for: .milliseconds(100))
        }
        guard interview.knownNodes.contains(node), !interview.readyNodes.contains(node) else { return }
        let before = reports.generation(of: key)
        guard await !driver.knowsValue(key) else { return }
        logger.debug("the command waits for its value", metadata: ["value": "\(key)"])
        _ = await reports.wait(for: key, after: before, timeout: Self.valueWaitLimit)
    }

    func perform(_ command: DeviceCommand, node: NodeID, instance: UInt8, device: DeviceDescriptor)
        async throws(CommandFailure)
    {
        if interview.basicOnly.contains(node), try await performBasic(command, node: node, instance: instance) {
            return
        }
        await awaitValue(for: command, node: node, instance: instance)
        switch command {
        case .level, .setLocked:
            if let sent = try await set(command, node: node, instance: instance) {
                await confirm(sent)
            }
        case .on, .off:
            try await quirk.sendSwitch(to: node, instance: instance) { () async throws(CommandFailure) in
                guard let sent = try await set(command, node: node, instance: instance) else { return nil }
                await confirm(sent)
                return sent
            }
        case .stop:
            try await stopLevelChange(node: node, instance: instance)
        case .setpoint, .mode:
            try await setThermostat(command, node: node, instance: instance)
        case .refresh:
            if await quirk.refresh(node, instance: instance) { return }
            for id in await driver.valueIDs(node: node)
            where id.instance == instance
                && ([
                    CommandClass.switchMultilevel, CommandClass.switchBinary, CommandClass.meter, CommandClass.doorLock,
                ]
                .contains(
                    id.commandClass)
                    || ZWaveThermostatMapping.isThermostatValue(commandClass: id.commandClass, index: id.index))
            {
                try? await driver.refresh(id)
            }
        case .toggle, .volume, .mute, .input:
            throw CommandFailure("\(command) is not supported by Z-Wave device \(device.address)")
        }
    }

    /// Sets a thermostat's heating setpoint (the decimal as text in the precision the device reports it in, at least
    /// one decimal, which every device parses: OpenZWave sends the text's precision) or its mode (the list item of the mode's Z-Wave number), confirmed by the device's
    /// report. A node asleep (a Wake Up thermostat; the Spirit is FLiRS and hears at once) gets it from OpenZWave's
    /// wake-up queue when it wakes: the confirmation wait ends without it, the report still updates the state.
    func setThermostat(_ command: DeviceCommand, node: NodeID, instance: UInt8) async throws(CommandFailure) {
        guard let key = Self.setKey(command, node: node, instance: instance) else { return }
        guard let id = await driver.valueID(for: key) else {
            throw CommandFailure("node \(node.rawValue) has no value for \(command) (\(key))")
        }
        let input: ZWaveValueInput
        switch command {
        case .setpoint(let value):
            var precision = 1
            if case .decimal(_, let places)? = try? await driver.read(id).content { precision = max(Int(places), 1) }
            input = .string(ZWaveThermostatMapping.setpointText(value, precision: precision))
        case .mode(let mode):
            guard let number = ZWaveThermostatMapping.modeNumbers[mode] else { return }
            input = .listValue(Int32(number))
        default:
            return
        }
        let before = reports.generation(of: key)
        do {
            try await driver.setValue(id, to: input)
        } catch {
            throw CommandFailure("\(command) to node \(node.rawValue) failed: \(error)")
        }
        await confirm(PendingConfirmation(key: key, before: before))
    }

    /// Stops a moving cover: Switch Multilevel Stop Level Change (`0x26 0x05`), confirmed by the report of where it
    /// stood (a device reports its level when its motor stops).
    func stopLevelChange(node: NodeID, instance: UInt8) async throws(CommandFailure) {
        guard let key = Self.setKey(.level(0), node: node, instance: instance) else { return }
        let before = reports.generation(of: key)
        do {
            try await driver.sendRaw(
                node: node, command: [CommandClass.switchMultilevel, CommandClass.switchMultilevelStopLevelChange],
                userCommand: true)
        } catch {
            throw CommandFailure("Stop Level Change to \(node) failed: \(error)")
        }
        await confirm(PendingConfirmation(key: key, before: before))
    }

    /// Waits for the device's report confirming `sent` (or the timeout).
    func confirm(_ sent: PendingConfirmation) async {
        if !(await reports.wait(for: sent.key, after: sent.before)) {
            logger.debug("no report within the confirmation time", metadata: ["value": "\(sent.key)"])
        }
    }
}
