/// One Z-Wave Serial API data frame: `SOF LEN TYPE FUNC PAYLOAD… CHK`.
///
/// `LEN` counts TYPE through CHK (payload length + 3); `CHK` is 0xFF XOR every byte from LEN through the
/// last payload byte (SOF excluded).
public struct SerialFrame: Sendable, Equatable, CustomStringConvertible {
    /// Start-of-frame marker.
    public static let sof: UInt8 = 0x01
    /// Acknowledge: the last data frame was received with a good checksum.
    public static let ack: UInt8 = 0x06
    /// Negative acknowledge: a data frame was received with a bad checksum.
    public static let nak: UInt8 = 0x15
    /// Cancel: a valid frame was dropped because both ends transmitted at once.
    public static let can: UInt8 = 0x18

    /// REQUEST (0x00) or RESPONSE (0x01).
    public enum Kind: UInt8, Sendable {
        case request = 0x00
        case response = 0x01
    }

    /// REQUEST or RESPONSE.
    public var kind: Kind
    /// The Serial API function id (FUNC).
    public var function: UInt8
    /// The bytes between FUNC and CHK.
    public var payload: [UInt8]

    /// A frame of `kind` for `function` with `payload`.
    public init(_ kind: Kind, _ function: UInt8, _ payload: [UInt8] = []) {
        self.kind = kind
        self.function = function
        self.payload = payload
    }

    /// The checksum over `bytes` (LEN through the last payload byte).
    public static func checksum<C: Collection>(_ bytes: C) -> UInt8 where C.Element == UInt8 {
        bytes.reduce(UInt8(0xFF)) { $0 ^ $1 }
    }

    /// The encoded frame including SOF and checksum. Payloads over 252 bytes are truncated (LEN is one byte).
    public var encoded: [UInt8] {
        let body = Array(payload.prefix(252))
        var bytes: [UInt8] = [UInt8(body.count + 3), kind.rawValue, function]
        bytes.append(contentsOf: body)
        let chk = SerialFrame.checksum(bytes)
        return [SerialFrame.sof] + bytes + [chk]
    }

    public var description: String {
        "\(kind == .request ? "REQ" : "RES") \(hex([function])) \(hex(payload))"
    }
}

/// Space-separated upper-case hex, e.g. `01 03 00 15 E9`.
public func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
    bytes.map { b in
        let s = String(b, radix: 16, uppercase: true)
        return b < 0x10 ? "0" + s : s
    }.joined(separator: " ")
}
