/// An OpenZWave ValueID as a Swift value: where a value lives (node, command class, instance, index)
/// and what it is (genre, type). `id` is OpenZWave's 64-bit id; with `home` it identifies the value.
public struct ZWaveValueID: Sendable, Hashable, CustomStringConvertible {
    public let home: HomeID
    public let node: NodeID
    public let genre: Genre
    public let commandClass: UInt8
    public let instance: UInt8
    public let index: UInt16
    public let type: ValueType
    /// `ValueID::GetId()`.
    public let id: UInt64

    public init(
        home: HomeID, node: NodeID, genre: Genre, commandClass: UInt8, instance: UInt8, index: UInt16,
        type: ValueType, id: UInt64
    ) {
        self.home = home
        self.node = node
        self.genre = genre
        self.commandClass = commandClass
        self.instance = instance
        self.index = index
        self.type = type
        self.id = id
    }

    /// Where the value lives, without its type: the key the driver looks values up by.
    public var key: ZWaveValueKey {
        ZWaveValueKey(node: node, commandClass: commandClass, instance: instance, index: index)
    }

    public var description: String {
        let cc = String(commandClass, radix: 16, uppercase: true)
        return "\(node) cc 0x\(cc) instance \(instance) index \(index) (\(type), \(genre))"
    }

    /// `ValueID::ValueGenre`.
    public enum Genre: UInt8, Sendable, Hashable {
        case basic = 0, user, config, system, unknown = 255
    }

    /// `ValueID::ValueType`.
    public enum ValueType: UInt8, Sendable, Hashable {
        case bool = 0, byte, decimal, int, list, schedule, short, string, button, raw, bitSet, unknown = 255
    }
}
