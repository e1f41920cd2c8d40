/// What the byte-stream parser recognised.
public enum SerialToken: Sendable, Equatable {
    /// 0x06.
    case ack
    /// 0x15.
    case nak
    /// 0x18.
    case can
    /// A data frame with a good checksum.
    case frame(SerialFrame)
    /// A complete data frame whose checksum did not match (the receiver answers NAK).
    case badChecksum([UInt8])
    /// A byte outside any frame that is not ACK/NAK/CAN/SOF.
    case garbage(UInt8)
}

/// Incremental Serial API parser that tolerates garbage: stray bytes are reported and skipped, a frame
/// with a bad checksum is reported as such, a LEN below 3 is treated as garbage.
public struct SerialFrameParser: Sendable {
    private var buffer: [UInt8] = []

    public init() {}

    /// Whether a frame is partially received.
    public var isInsideFrame: Bool { !buffer.isEmpty }

    /// Drops a partially received frame (the receiver's timeout).
    public mutating func reset() { buffer.removeAll() }

    /// Feeds bytes; returns every token completed by them, in order.
    public mutating func feed<C: Collection>(_ bytes: C) -> [SerialToken] where C.Element == UInt8 {
        var tokens: [SerialToken] = []
        for byte in bytes {
            if buffer.isEmpty {
                switch byte {
                case SerialFrame.sof: buffer.append(byte)
                case SerialFrame.ack: tokens.append(.ack)
                case SerialFrame.nak: tokens.append(.nak)
                case SerialFrame.can: tokens.append(.can)
                default: tokens.append(.garbage(byte))
                }
                continue
            }
            buffer.append(byte)
            if buffer.count == 2, byte < 3 {
                // A LEN that cannot hold TYPE/FUNC/CHK: the SOF was garbage; re-scan the LEN byte.
                buffer.removeAll()
                tokens.append(.garbage(SerialFrame.sof))
                tokens.append(contentsOf: feed([byte]))
                continue
            }
            guard buffer.count >= 2 else { continue }
            let length = Int(buffer[1])
            if buffer.count == length + 2 {
                let body = buffer[1..<(buffer.count - 1)]
                let chk = buffer[buffer.count - 1]
                if SerialFrame.checksum(body) == chk, let kind = SerialFrame.Kind(rawValue: buffer[2]) {
                    tokens.append(.frame(SerialFrame(kind, buffer[3], Array(buffer[4..<(buffer.count - 1)]))))
                } else {
                    tokens.append(.badChecksum(buffer))
                }
                buffer.removeAll()
            }
        }
        return tokens
    }
}
