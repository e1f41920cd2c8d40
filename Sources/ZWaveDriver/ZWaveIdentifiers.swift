/// A Z-Wave network's home id (the controller's 32-bit id).
public struct HomeID: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }

    /// `0xC0FFEE01`-style, as OpenZWave names its cache file (`ozwcache_0xc0ffee01.xml`).
    public var description: String {
        let hex = String(rawValue, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - hex.count)) + hex
    }
}

/// A Z-Wave node id (1...232) on one network.
public struct NodeID: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public var description: String { "node \(rawValue)" }

    public static func < (lhs: NodeID, rhs: NodeID) -> Bool { lhs.rawValue < rhs.rawValue }
}

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
