/// Where a value lives on the network, independent of its OpenZWave type: node, command class,
/// instance (endpoint, 1-based in OpenZWave) and index.
public struct ZWaveValueKey: Sendable, Hashable, CustomStringConvertible {
    public let node: NodeID
    public let commandClass: UInt8
    public let instance: UInt8
    public let index: UInt16

    public init(node: NodeID, commandClass: UInt8, instance: UInt8, index: UInt16) {
        self.node = node
        self.commandClass = commandClass
        self.instance = instance
        self.index = index
    }

    public var description: String {
        "\(node) cc 0x\(String(commandClass, radix: 16, uppercase: true)) instance \(instance) index \(index)"
    }
}
