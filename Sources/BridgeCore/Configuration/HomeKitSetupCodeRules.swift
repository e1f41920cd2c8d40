/// The rules of a HomeKit setup code, `XXX-XX-XXX` (eight digits): the configuration checks `[homekit] setup_code`
/// with them, and HomeKit's `SetupCode` is built on them. The codes the HAP specification forbids (all digits
/// equal, `123-45-678`, `876-54-321`) are refused.
public enum HomeKitSetupCodeRules {
    /// The eight digits of `text`, without dashes.
    /// - Throws: ``HomeKitSetupCodeError/format`` or ``HomeKitSetupCodeError/forbidden(_:)``.
    public static func digits(of text: String) throws(HomeKitSetupCodeError) -> String {
        let characters = Array(text)
        let dashes = characters.count == 10 && characters[3] == "-" && characters[6] == "-"
        let digits = characters.enumerated().filter { $0.offset != 3 && $0.offset != 6 }.map(\.element)
        guard dashes, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .format }
        let plain = String(digits)
        guard !forbidden.contains(plain) else { throw .forbidden(text) }
        return plain
    }

    /// `XXX-XX-XXX` for eight digits.
    public static func formatted(_ digits: String) -> String {
        "\(digits.prefix(3))-\(digits.dropFirst(3).prefix(2))-\(digits.suffix(3))"
    }

    /// The codes the HAP specification forbids, as eight digits.
    public static let forbidden: Set<String> =
        Set((0...9).map { String(repeating: String($0), count: 8) }).union(["12345678", "87654321"])
}

/// Why a setup code (or the file that holds it) was refused; the messages never quote a code read from a file.
public enum HomeKitSetupCodeError: Error, Sendable, Equatable, CustomStringConvertible {
    case format
    case forbidden(String)
    case unreadable(String)
    case exposed(UInt32)

    public var description: String {
        switch self {
        case .format:
            "a setup code is eight digits written XXX-XX-XXX, e.g. 031-45-154"
        case .forbidden(let text):
            "\(text) is one of the setup codes the HomeKit specification forbids (all digits equal, 123-45-678, "
                + "876-54-321)"
        case .unreadable(let reason):
            "cannot be read: \(reason)"
        case .exposed(let mode):
            SecretFile.exposedMessage(mode, secret: "the setup code")
        }
    }
}

extension HomeKitSetupCodeError: SecretFileProblem {}
