/// A CEC frame as libcec hands it over or takes it: initiator, destination, opcode (nil for a poll) and parameters.
public struct CECFrame: Sendable, Hashable, CustomStringConvertible {
    public var initiator: LogicalAddress
    public var destination: LogicalAddress
    /// The opcode; nil for a poll (header only).
    public var opcode: UInt8?
    /// The operands, at most 14 bytes on the wire.
    public var parameters: [UInt8]

    /// The longest operand list CEC allows (16-byte frame minus header and opcode).
    public static let maximumParameters = 14

    public init(initiator: LogicalAddress, destination: LogicalAddress, opcode: UInt8?, parameters: [UInt8] = []) {
        self.initiator = initiator
        self.destination = destination
        self.opcode = opcode
        self.parameters = opcode == nil ? [] : parameters
    }

    /// The frame of `bytes` (header first, then opcode and parameters); nil when empty or over 16 bytes.
    public init?(bytes: [UInt8]) {
        guard let header = bytes.first, bytes.count <= 2 + CECFrame.maximumParameters else { return nil }
        self.init(
            initiator: LogicalAddress(header >> 4), destination: LogicalAddress(header & 0x0F),
            opcode: bytes.count > 1 ? bytes[1] : nil, parameters: Array(bytes.dropFirst(2)))
    }

    /// Header byte, opcode, parameters.
    public var bytes: [UInt8] {
        [initiator.rawValue << 4 | destination.rawValue] + (opcode.map { [$0] + parameters } ?? [])
    }

    /// Whether the destination is 15 (broadcast).
    public var isBroadcast: Bool { destination == .broadcast }

    /// The 16-bit value of two parameter bytes at `index`, if present.
    func word(at index: Int) -> UInt16? {
        guard parameters.count >= index + 2 else { return nil }
        return UInt16(parameters[index]) << 8 | UInt16(parameters[index + 1])
    }

    public var description: String {
        bytes.map { $0 < 0x10 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(separator: ":")
    }
}
