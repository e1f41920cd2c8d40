internal import BridgeCore
internal import Logging

/// A node's configuration: brings its configuration parameters to the values in devices.toml
/// (`[zwave.device.config]`) once its interview completed (reads each parameter, sets those that differ and reports
/// what changed, `configuration_applied`), and its desired associations (`ConfigurationApplier+Associations`); answers
/// the parameter requests (`ConfigurationApplier+Parameters`) and the association requests.
///
/// Owns which nodes it has taken on since start (each once: a later re-interview does not apply again).
@ZWaveBackendActor
final class ConfigurationApplier {
    let devices: [ZWaveDeviceConfig]
    let driver: OpenZWave
    let reports: ReportWaiter
    let logger: Logger
    /// Nodes whose configuration was applied (or is being applied).
    private var applied: Set<NodeID> = []

    nonisolated init(devices: [ZWaveDeviceConfig], driver: OpenZWave, reports: ReportWaiter, logger: Logger) {
        self.devices = devices
        self.driver = driver
        self.reports = reports
        self.logger = logger
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
            $0.node == Int(node.rawValue) && (!$0.config.isEmpty || !$0.associations.isEmpty)
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
}
