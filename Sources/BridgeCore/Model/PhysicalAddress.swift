/// An HDMI-CEC physical address `a.b.c.d`: four nibbles (0-15) naming a position in the HDMI tree
/// (`0.0.0.0` is the TV, `1.0.0.0` its HDMI 1 input, `1.2.0.0` input 2 of the device on HDMI 1).
///
/// Parsed from and printed as dotted nibbles; `10`-`15` may be written in decimal or as hex digits `a`-`f`
/// and are printed as hex digits, as libcec prints them.
public struct PhysicalAddress: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The address as the 16-bit value CEC sends on the wire (`1.0.0.0` is `0x1000`).
    public let rawValue: UInt16

    /// Wraps a 16-bit wire value.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// The four nibbles, most significant first.
    public var nibbles: [Int] {
        [Int(rawValue >> 12) & 0xF, Int(rawValue >> 8) & 0xF, Int(rawValue >> 4) & 0xF, Int(rawValue) & 0xF]
    }

    public var description: String {
        nibbles.map { String($0, radix: 16) }.joined(separator: ".")
    }

    public static func < (lhs: PhysicalAddress, rhs: PhysicalAddress) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension PhysicalAddress {
    /// Why a string is not a physical address.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Parses `a.b.c.d`. Each part is `0`-`15` (decimal) or one hex digit; after a `0` every later part must
    /// be `0` too (HDMI addresses are filled from the left), and `f.f.f.f` (the "invalid" address) is refused.
    public init(parsing text: String) throws(ParseError) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else {
            throw ParseError("must be four parts a.b.c.d, each 0-15 (got \"\(text)\")")
        }
        var value: UInt16 = 0
        var sawZero = false
        for part in parts {
            guard let nibble = Self.nibble(part) else {
                throw ParseError("each part must be 0-15 or a hex digit (got \"\(text)\")")
            }
            if sawZero && nibble != 0 {
                throw ParseError("a non-zero part cannot follow a zero part (got \"\(text)\")")
            }
            sawZero = sawZero || nibble == 0
            value = value << 4 | UInt16(nibble)
        }
        guard value != 0xFFFF else { throw ParseError("f.f.f.f is the reserved invalid address") }
        self.init(rawValue: value)
    }

    private static func nibble(_ part: Substring) -> Int? {
        guard !part.isEmpty, part.count <= 2, part.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        if let decimal = Int(part, radix: 10), (0...15).contains(decimal) { return decimal }
        if part.count == 1, let hex = Int(part, radix: 16) { return hex }
        return nil
    }
}
