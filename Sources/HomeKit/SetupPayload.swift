/// The `X-HM://` setup payload an iPhone reads from a QR code: the setup code, the accessory category and how
/// the accessory is reached, in 45 bits written base-36 in nine characters, followed by the four-character setup
/// id that the accessory also advertises (as a hash in its Bonjour record).
public struct SetupPayload: Sendable, Hashable {
    public let code: SetupCode
    /// The accessory category; 2 is a bridge.
    public let category: UInt8
    /// Four characters, 0-9 and A-Z.
    public let setupID: String

    public static let bridgeCategory: UInt8 = 2

    public init(code: SetupCode, category: UInt8 = Self.bridgeCategory, setupID: String) {
        self.code = code
        self.category = category
        self.setupID = setupID
    }

    /// The payload's text, e.g. `X-HM://0023ISYWY1234`.
    public var uri: String {
        let ipFlag: UInt64 = 2
        // version (3 bits, 0) | reserved (4 bits, 0) | category (8 bits) | flags (4 bits) | setup code (27 bits)
        let value = UInt64(category) << 31 | ipFlag << 27 | (code.value & 0x7FF_FFFF)
        let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var encoded: [Character] = []
        var rest = value
        for _ in 0..<9 {
            encoded.append(digits[Int(rest % 36)])
            rest /= 36
        }
        return "X-HM://" + String(encoded.reversed()) + setupID
    }
}
