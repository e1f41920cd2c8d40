/// A CEC logical address 0-15 (`0` TV, `5` audio system, `15` broadcast / unregistered).
public struct LogicalAddress: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 4-bit value.
    public let rawValue: UInt8

    /// Wraps a value; only the low four bits count.
    public init(_ rawValue: UInt8) {
        self.rawValue = rawValue & 0x0F
    }

    /// Nil unless `0...15`.
    public init?(checking value: Int) {
        guard (0...15).contains(value) else { return nil }
        self.init(UInt8(value))
    }

    public static let tv = LogicalAddress(0)
    public static let recordingDevice1 = LogicalAddress(1)
    public static let playbackDevice1 = LogicalAddress(4)
    public static let audioSystem = LogicalAddress(5)
    public static let broadcast = LogicalAddress(15)

    public var description: String { String(rawValue, radix: 16) }

    public static func < (lhs: LogicalAddress, rhs: LogicalAddress) -> Bool { lhs.rawValue < rhs.rawValue }
}
