/// A CEC frame on the emulated bus: header (initiator, destination) and the data bytes (opcode first).
public struct BusFrame: Sendable, Hashable, CustomStringConvertible {
    /// The initiator's logical address (0-15).
    public var initiator: UInt8
    /// The destination's logical address (0-15; 15 is broadcast).
    public var destination: UInt8
    /// Opcode and parameters; empty for a poll.
    public var data: [UInt8]

    /// The broadcast / unregistered logical address.
    public static let broadcast: UInt8 = 0x0F

    public init(initiator: UInt8, destination: UInt8, data: [UInt8] = []) {
        self.initiator = initiator & 0x0F
        self.destination = destination & 0x0F
        self.data = data
    }

    /// Builds a frame from wire bytes (header first); nil for an empty array.
    public init?(bytes: [UInt8]) {
        guard let header = bytes.first else { return nil }
        self.init(initiator: header >> 4, destination: header & 0x0F, data: Array(bytes.dropFirst()))
    }

    /// Parses `10:44:41` (libcec's notation).
    public init?(parsing text: String) {
        let parts = text.split(separator: ":")
        var bytes: [UInt8] = []
        for part in parts {
            guard part.count <= 2, let byte = UInt8(part, radix: 16) else { return nil }
            bytes.append(byte)
        }
        self.init(bytes: bytes)
    }

    /// The header byte.
    public var header: UInt8 { initiator << 4 | destination }
    /// The wire bytes, header first.
    public var bytes: [UInt8] { [header] + data }
    /// The opcode, nil for a poll.
    public var opcode: UInt8? { data.first }
    /// The parameters after the opcode.
    public var parameters: [UInt8] { Array(data.dropFirst()) }
    /// Whether the frame is addressed to everyone.
    public var isBroadcast: Bool { destination == BusFrame.broadcast }
    /// Whether the frame is a poll (header only).
    public var isPoll: Bool { data.isEmpty }

    /// The 16-bit value of two parameter bytes starting at `index`, if present.
    public func parameterWord(at index: Int) -> UInt16? {
        let p = parameters
        guard p.count >= index + 2 else { return nil }
        return UInt16(p[index]) << 8 | UInt16(p[index + 1])
    }

    public var description: String { bytes.map { String(format2: $0) }.joined(separator: ":") }
}

/// A frame the host transmitted through the emulated adapter, with when it completed and what the
/// adapter answered.
public struct TransmittedFrame: Sendable, CustomStringConvertible {
    /// The frame as sent.
    public let frame: BusFrame
    /// When the last packet (TRANSMIT_EOM) arrived.
    public let time: ContinuousClock.Instant
    /// Whether the adapter answered TRANSMIT_SUCCEEDED (else TRANSMIT_FAILED_ACK).
    public let acknowledged: Bool
    /// Its position in the emulator's record (0-based).
    public let index: Int

    public var description: String { "\(frame) \(acknowledged ? "ack" : "nack")" }
}
