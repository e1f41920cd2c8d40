internal import BridgeCore
internal import Logging

/// Basic control of a node whose interview did not finish: the library has not created its switch
/// values yet, so commands go out as Basic Set (`0x20 0x01 value`) until a `refresh` completes.
extension ZWaveBackend {

    /// Gives a node with an unfinished interview a device (`unassigned/node<N>` unless configured) and
    /// marks it for Basic Set control.
    func enableBasicControl(_ node: NodeID) async {
        interview.controlWithBasicSet(node)
        let number = Int(node.rawValue)
        guard !announced.hasDevice(node: number) else { return }
        let type = (try? await driver.nodeInfo(node))?.type.lowercased() ?? ""
        let kind: DeviceKind = type.contains("multilevel") || type.contains("dimmer") ? .dimmer : .binarySwitch
        announced.discoverUnfinished(node: number, kind: kind)
        logger.notice("interview unfinished: node controlled with Basic Set", metadata: ["node": "\(number)"])
    }

    /// Sends `command` as Basic Set when the library has no switch value for it; false when the normal
    /// path applies (the value exists by now).
    func performBasic(_ command: DeviceCommand, node: NodeID, instance: UInt8) async throws(CommandFailure) -> Bool {
        let value: UInt8
        let commandClass: UInt8
        switch command {
        case .level(let level):
            value = UInt8(clamping: min(max(level, 0), 99))
            commandClass = CommandClass.switchMultilevel
        case .on:
            value = 0xFF
            commandClass = CommandClass.switchBinary
        case .off:
            value = 0x00
            commandClass = CommandClass.switchBinary
        default:
            return false
        }
        let key = ZWaveValueKey(node: node, commandClass: commandClass, instance: instance, index: 0)
        guard await driver.valueID(for: key) == nil else { return false }
        do {
            try await driver.sendRaw(
                node: node, command: [CommandClass.basic, CommandClass.basicSet, value], userCommand: true)
        } catch {
            throw CommandFailure("Basic Set to \(node) failed: \(error)")
        }
        return true
    }
}
