internal import BridgeCore
internal import FoundationEssentials
internal import Logging

/// The configuration parameter requests (`get_config`, `set_config`, `config_list`): what the device reports, asked
/// for and read back through the library.
extension ConfigurationApplier {
    func configKey(_ node: NodeID, _ parameter: UInt8) -> ZWaveValueKey {
        ZWaveValueKey(node: node, commandClass: CommandClass.configuration, instance: 1, index: UInt16(parameter))
    }

    /// `get_config`: asks the device (Configuration Get) and returns what it reported.
    func getConfig(_ node: NodeID, parameter: UInt8) async throws(RequestFailure) -> ConfigParameterValue {
        let key = configKey(node, parameter)
        let before = reports.generation(of: key)
        do {
            try await driver.requestConfigParameter(node: node, parameter: parameter)
        } catch {
            throw RequestFailure("cannot ask \(node) for parameter \(parameter): \(error)")
        }
        guard await reports.wait(for: key, after: before) else {
            throw RequestFailure("\(node) did not report parameter \(parameter) within \(reports.timeout)")
        }
        return try await configValue(node, parameter: parameter)
    }

    /// `set_config`: sets the parameter (size from the request, else the library's known size, else 1
    /// byte), then reads it back from the device.
    func setConfig(_ node: NodeID, parameter: UInt8, value: Int32, size: UInt8) async throws(RequestFailure)
        -> ConfigParameterValue
    {
        let key = configKey(node, parameter)
        var chosen = size
        if chosen == 0 {
            if let id = await driver.valueID(for: key), let current = try? await driver.read(id) {
                chosen = current.content.integer.size
            } else {
                chosen = 1
            }
        }
        guard PendingParameter.fits(Int(value), size: Int(chosen)) else {
            throw RequestFailure("value \(value) does not fit in \(chosen) byte(s)")
        }
        if sleeping.asleep.contains(node) {
            return try await hold(node, parameter: parameter, value: value, size: chosen)
        }
        wakeUpQueue.drop(node: Int(node.rawValue), parameter: Int(parameter))
        do {
            try await driver.setConfigParameter(node: node, parameter: parameter, value: value, size: chosen)
        } catch {
            throw RequestFailure("cannot set parameter \(parameter) of \(node): \(error)")
        }
        return try await getConfig(node, parameter: parameter)
    }

    /// `set_config` to a sleeping node: the library gets the Set and a Get at once (its wake-up queue sends them at
    /// the node's Wake Up Notification), the bridge holds the command (`WakeUpQueue`: kept across a restart) and
    /// answers at once with `pending` after a `command_pending` event; the node's report after its wake-up ends it
    /// (`pending_applied`, or `pending_failed` with the value it reported).
    func hold(_ node: NodeID, parameter: UInt8, value: Int32, size: UInt8) async throws(RequestFailure)
        -> ConfigParameterValue
    {
        let command = PendingParameter(
            node: Int(node.rawValue), parameter: Int(parameter), value: Int(value), size: Int(size),
            since: Int(Date().timeIntervalSince1970))
        try await give(command)
        wakeUpQueue.hold(command)
        logger.info(
            "set_config to a sleeping node: held for its wake-up",
            metadata: ["node": "\(node.rawValue)", "parameter": "\(parameter)", "value": "\(value)"])
        router.emit(.pending(command, .held))
        return ConfigParameterValue(
            node: command.node, parameter: command.parameter, value: command.value, size: command.size, pending: true)
    }

    /// The node woke up: the commands held for it from before a restart go to the library now (it sends them while
    /// the node is awake, or at its next wake-up).
    func giveHeld(_ node: NodeID) async {
        for command in wakeUpQueue.toGive(node: Int(node.rawValue)) {
            do {
                try await give(command)
            } catch {
                router.emit(.pending(command, .failed(reported: nil, reason: error.reason)))
                wakeUpQueue.drop(node: command.node, parameter: command.parameter)
            }
        }
    }

    /// A configuration parameter's report: ends the command held for it, if any.
    func noteReport(_ value: ZWaveValue) {
        guard value.id.commandClass == CommandClass.configuration,
            let event = wakeUpQueue.reported(
                node: Int(value.id.node.rawValue), parameter: Int(value.id.index), value: value.content.integer.value)
        else { return }
        router.emit(event)
    }

    private func give(_ command: PendingParameter) async throws(RequestFailure) {
        let node = NodeID(UInt8(clamping: command.node))
        let parameter = UInt8(clamping: command.parameter)
        do {
            try await driver.setConfigParameter(
                node: node, parameter: parameter, value: Int32(truncatingIfNeeded: command.value),
                size: UInt8(clamping: command.size))
            try await driver.requestConfigParameter(node: node, parameter: parameter)
        } catch {
            throw RequestFailure("cannot set parameter \(parameter) of \(node): \(error)")
        }
    }

    /// `config_list`: every configuration parameter OpenZWave knows for the node (from its device database and the
    /// device's reports), with its label and last known value; asks the device nothing.
    func configList(_ node: NodeID) async throws(RequestFailure) -> ConfigParameterList {
        let ids = await driver.valueIDs(node: node).filter { $0.commandClass == CommandClass.configuration }
        var parameters: [ConfigParameter] = []
        for id in ids.sorted(by: { $0.index < $1.index }) {
            guard let value = try? await driver.read(id) else { continue }
            let (number, size) = value.content.integer
            var choice: String?
            if case .list(_, let label) = value.content { choice = label }
            parameters.append(
                ConfigParameter(
                    parameter: Int(id.index), label: value.label, value: number, choice: choice, size: Int(size),
                    units: value.units, readOnly: value.readOnly))
        }
        return ConfigParameterList(node: Int(node.rawValue), parameters: parameters)
    }

    func configValue(_ node: NodeID, parameter: UInt8) async throws(RequestFailure) -> ConfigParameterValue {
        guard let id = await driver.valueID(for: configKey(node, parameter)) else {
            throw RequestFailure("\(node) has no configuration parameter \(parameter)")
        }
        let current: ZWaveValue
        do {
            current = try await driver.read(id)
        } catch {
            throw RequestFailure("cannot read parameter \(parameter) of \(node): \(error)")
        }
        let (value, size) = current.content.integer
        guard let value else {
            throw RequestFailure("parameter \(parameter) of \(node) is not a number: \(current.content)")
        }
        return ConfigParameterValue(node: Int(node.rawValue), parameter: Int(parameter), value: value, size: Int(size))
    }
}
