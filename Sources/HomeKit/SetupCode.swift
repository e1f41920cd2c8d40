/// A HomeKit setup code, `XXX-XX-XXX` (eight digits), the password of Pair Setup. The codes the HAP
/// specification forbids (all digits equal, `123-45-678`, `876-54-321`) are refused.
public struct SetupCode: Sendable, Hashable, CustomStringConvertible {
    /// The eight digits, without dashes.
    public let digits: String

    /// Why a text is not a usable setup code.
    public struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
    }

    public init(_ text: String) throws(Invalid) {
        let characters = Array(text)
        let dashes = characters.count == 10 && characters[3] == "-" && characters[6] == "-"
        let digits = characters.enumerated().filter { $0.offset != 3 && $0.offset != 6 }.map(\.element)
        guard dashes, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw Invalid(description: "a setup code is eight digits written XXX-XX-XXX, e.g. 031-45-154")
        }
        let plain = String(digits)
        guard !Self.forbidden.contains(plain) else {
            throw Invalid(
                description:
                    "\(text) is one of the setup codes the HomeKit specification forbids (all digits equal, 123-45-678, 876-54-321)"
            )
        }
        self.digits = plain
    }

    /// Eight random digits that are not forbidden.
    public static func random() -> SetupCode {
        var generator = SystemRandomNumberGenerator()
        while true {
            let digits = (0..<8).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
            let text = "\(digits.prefix(3))-\(digits.dropFirst(3).prefix(2))-\(digits.suffix(3))"
            if let code = try? SetupCode(text) { return code }
        }
    }

    static let forbidden: Set<String> =
        Set((0...9).map { String(repeating: String($0), count: 8) }).union(["12345678", "87654321"])

    /// `XXX-XX-XXX`, the form Pair Setup uses as its password.
    public var description: String {
        "\(digits.prefix(3))-\(digits.dropFirst(3).prefix(2))-\(digits.suffix(3))"
    }

    /// The code as a number, for the setup payload.
    var value: UInt64 { UInt64(digits) ?? 0 }
}
