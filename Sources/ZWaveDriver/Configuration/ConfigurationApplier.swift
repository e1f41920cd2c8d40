internal import BridgeCore
internal import Logging

/// A node's configuration: brings its configuration parameters to the values in devices.toml
/// (`[zwave.device.config]`) once its interview completed (reads each parameter, sets those that differ and reports
/// what changed, `configuration_applied`), and its desired associations (`ConfigurationApplier+Associations`); answers
/// the parameter requests (`ConfigurationApplier+Parameters`) and the association requests.
///
/// Owns which nodes it has taken on since start (each once: a later re-interview does not apply again), and the
/// `set_config`s held for sleeping nodes (`WakeUpQueue`, `ConfigurationApplier+Parameters`).
@ZWaveBackendActor
final class ConfigurationApplier {
    let devices: [ZWaveDeviceConfig]
    let driver: OpenZWave
    let reports: ReportWaiter
    let logger: Logger
    let router: EventRouter
    /// Whether a node sleeps now: a `set_config` to it is held for its wake-up.
    let sleeping: SleepingNodes
    let wakeUpQueue: WakeUpQueue
    /// Nodes whose configuration was applied (or is being applied).
    private var applied: Set<NodeID> = []

    nonisolated init(
        devices: [ZWaveDeviceConfig], driver: OpenZWave, reports: ReportWaiter, router: EventRouter,
        sleeping: SleepingNodes, logger: Logger
    ) {
        self.devices = devices
        self.driver = driver
        self.reports = reports
        self.router = router
        self.sleeping = sleeping
        self.logger = logger
        wakeUpQueue = WakeUpQueue(directory: driver.configuration.userPath, logger: logger)
    }

    /// How long a command waits for the device's report.
    var confirmationTimeout: Duration { reports.timeout }

    /// Whether devices.toml sets configuration parameters of `node`.
    func wantsParameters(_ node: NodeID) -> Bool {
        devices.contains { $0.node == Int(node.rawValue) && !$0.config.isEmpty }
    }

    /// Whether `node` has parameters or associations to apply that were not applied since start; takes them on if
    /// so (the caller then runs `apply` and the associations).
    func takeOn(_ node: NodeID) -> Bool {
        let wantsConfiguration = devices.contains {
            $0.node == Int(node.rawValue)
                && (!$0.config.isEmpty || !$0.associations.isEmpty || $0.wakeUpInterval != nil)
        }
        guard wantsConfiguration, !applied.contains(node) else { return false }
        applied.insert(node)
        return true
    }

    /// Reads the configured parameters of `node` and sets those that differ; the event reports what changed and
    /// what failed.
    func apply(_ node: NodeID) async -> BridgeEvent {
        let wanted = devices.filter { $0.node == Int(node.rawValue) }.flatMap(\.config)
        var changes: [BridgeEvent.ParameterChange] = []
        var failures: [BridgeEvent.ParameterFailure] = []
        for parameter in wanted {
            let key = ZWaveValueKey(
                node: node, commandClass: CommandClass.configuration, instance: 1, index: UInt16(parameter.parameter))
            let before = reports.generation(of: key)
            do {
                try await driver.requestConfigParameter(node: node, parameter: UInt8(clamping: parameter.parameter))
            } catch {
                failures.append(.init(parameter: parameter.parameter, reason: "\(error)"))
                continue
            }
            _ = await reports.wait(for: key, after: before)
            guard let id = await driver.valueID(for: key), let current = try? await driver.read(id) else {
                failures.append(.init(parameter: parameter.parameter, reason: "the device did not report it"))
                continue
            }
            let (value, size) = current.content.integer
            logger.debug(
                "configuration parameter read",
                metadata: [
                    "node": "\(node.rawValue)", "parameter": "\(parameter.parameter)", "value": "\(current.content)",
                ])
            guard value != Int(parameter.value) else { continue }
            do {
                let after = reports.generation(of: key)
                try await driver.setConfigParameter(
                    node: node, parameter: UInt8(clamping: parameter.parameter), value: parameter.value, size: size)
                _ = await reports.wait(for: key, after: after)
                changes.append(.init(parameter: parameter.parameter, from: value, to: Int(parameter.value)))
                logger.info(
                    "configuration parameter set",
                    metadata: [
                        "node": "\(node.rawValue)", "parameter": "\(parameter.parameter)",
                        "value": "\(parameter.value)",
                    ])
            } catch {
                failures.append(.init(parameter: parameter.parameter, reason: "\(error)"))
            }
        }
        return .configurationApplied(node: Int(node.rawValue), changed: changes, failed: failures)
    }

    /// The wake-up interval devices.toml wants for `node` (`wake_up_interval`), if any.
    func wantedWakeUpInterval(_ node: NodeID) -> Int? {
        devices.first { $0.node == Int(node.rawValue) && $0.wakeUpInterval != nil }?.wakeUpInterval
    }

    /// Brings `node`'s wake-up interval to devices.toml's (`wake_up_interval`): nil when it has it already. The
    /// interview has just read it (Wake Up Interval Get); a differing one is set (Interval Set, with the controller
    /// as the target) and read back. A node that went back to sleep in between gets both at its next wake-up
    /// (OpenZWave's wake-up queue): `confirmed` false.
    func applyWakeUpInterval(_ node: NodeID) async -> BridgeEvent? {
        guard let wanted = wantedWakeUpInterval(node) else { return nil }
        let number = Int(node.rawValue)
        let key = ZWaveValueKey(
            node: node, commandClass: SleepingNodes.wakeUp, instance: 1, index: SleepingNodes.intervalIndex)
        guard let id = await driver.valueID(for: key) else {
            return .wakeUpInterval(
                node: number, from: nil, to: wanted, confirmed: false,
                failure: "node \(number) has no wake-up interval (it does not sleep, or its interview did not reach it)"
            )
        }
        let current = (try? await driver.read(id)).flatMap { $0.content.integer.value }
        guard current != wanted else { return nil }
        let before = reports.generation(of: key)
        do {
            try await driver.setValue(id, to: .int(Int32(clamping: wanted)))
            try await driver.refresh(id)
        } catch {
            return .wakeUpInterval(node: number, from: current, to: wanted, confirmed: false, failure: "\(error)")
        }
        // The report confirms it only if it says the new interval (an old report may arrive first).
        var confirmed = false
        var seen = before
        while !confirmed, await reports.wait(for: key, after: seen) {
            seen = reports.generation(of: key)
            confirmed = (try? await driver.read(id)).flatMap { $0.content.integer.value } == wanted
        }
        logger.info(
            "wake-up interval set",
            metadata: [
                "node": "\(number)", "from": "\(current.map(String.init) ?? "?")", "to": "\(wanted)",
                "confirmed": "\(confirmed)",
            ])
        return .wakeUpInterval(node: number, from: current, to: wanted, confirmed: confirmed, failure: nil)
    }
}
