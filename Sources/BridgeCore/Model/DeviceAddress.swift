/// A device's place in the topic tree: `<prefix>/device/<room>/<name>`.
public struct DeviceAddress: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let room: String
    public let name: String

    public init(room: String, name: String) {
        self.room = room
        self.name = name
    }

    public var description: String { "\(room)/\(name)" }

    public static func < (lhs: DeviceAddress, rhs: DeviceAddress) -> Bool {
        (lhs.room, lhs.name) < (rhs.room, rhs.name)
    }
}
