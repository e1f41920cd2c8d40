import BridgeCore

/// A HomeKit setup code, `XXX-XX-XXX` (eight digits), the password of Pair Setup. The codes the HAP
/// specification forbids (all digits equal, `123-45-678`, `876-54-321`) are refused
/// (BridgeCore's `HomeKitSetupCodeRules`, which the configuration checks `[homekit] setup_code` with).
public struct SetupCode: Sendable, Hashable, CustomStringConvertible {
    /// The eight digits, without dashes.
    public let digits: String

    /// Why a text is not a usable setup code.
    public struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
    }

    public init(_ text: String) throws(Invalid) {
        do {
            digits = try HomeKitSetupCodeRules.digits(of: text)
        } catch {
            throw Invalid(description: error.description)
        }
    }

    /// Eight random digits that are not forbidden.
    public static func random() -> SetupCode {
        var generator = SystemRandomNumberGenerator()
        while true {
            let digits = (0..<8).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
            if let code = try? SetupCode(HomeKitSetupCodeRules.formatted(digits)) { return code }
        }
    }

    /// `XXX-XX-XXX`, the form Pair Setup uses as its password.
    public var description: String { HomeKitSetupCodeRules.formatted(digits) }

    /// The code as a number, for the setup payload.
    var value: UInt64 { UInt64(digits) ?? 0 }
}
