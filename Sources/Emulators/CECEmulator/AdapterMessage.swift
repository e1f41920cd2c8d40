/// One Pulse-Eight adapter message: a code byte (with its flags) and the unescaped payload.
public struct AdapterMessage: Sendable, Equatable, CustomStringConvertible {
    /// Start of a message on the wire.
    public static let start: UInt8 = 0xFF
    /// End of a message on the wire.
    public static let end: UInt8 = 0xFE
    /// Escape: the next byte is the real byte minus 3.
    public static let escape: UInt8 = 0xFD
    /// What is subtracted from an escaped byte.
    public static let escapeOffset: UInt8 = 3

    /// The raw code byte, flags included.
    public var codeByte: UInt8
    /// The payload, unescaped.
    public var payload: [UInt8]

    public init(codeByte: UInt8, payload: [UInt8] = []) {
        self.codeByte = codeByte
        self.payload = payload
    }

    public init(_ code: AdapterCode, _ payload: [UInt8] = [], flags: UInt8 = 0) {
        self.init(codeByte: code.rawValue | flags, payload: payload)
    }

    /// The message code without flags, if it is a known one.
    public var code: AdapterCode? { AdapterCode(rawValue: codeByte & 0x3F) }
    /// Whether the end-of-message flag is set.
    public var isEOM: Bool { codeByte & AdapterCode.eomFlag != 0 }

    /// The wire bytes: start, escaped code and payload, end.
    public var encoded: [UInt8] {
        var out: [UInt8] = [AdapterMessage.start]
        for byte in [codeByte] + payload {
            if byte >= AdapterMessage.escape {
                out.append(AdapterMessage.escape)
                out.append(byte &- AdapterMessage.escapeOffset)
            } else {
                out.append(byte)
            }
        }
        out.append(AdapterMessage.end)
        return out
    }

    public var description: String {
        let name = code.map { "\($0)" } ?? String(format2: codeByte)
        let flags =
            (codeByte & AdapterCode.eomFlag != 0 ? "+eom" : "") + (codeByte & AdapterCode.ackFlag != 0 ? "+ack" : "")
        return "\(name)\(flags)[\(payload.map { String(format2: $0) }.joined(separator: " "))]"
    }
}

extension String {
    /// Two lowercase hex digits.
    init(format2 byte: UInt8) {
        let digits = String(byte, radix: 16)
        self = byte < 0x10 ? "0" + digits : digits
    }
}
