/// `[homekit]`: the HomeKit bridge (HAP over IP). The section absent means no HomeKit; `enabled = false` keeps it
/// off with the section in place. Enabled, it needs a setup code (`setup_code` or `setup_code_file`).
public struct HomeKitSection: Sendable, Equatable {
    /// `enabled`: serve HomeKit; default false.
    public var enabled: Bool
    /// `name`: the bridge's name in the Home app; default `Thuis <bridge name>`.
    public var name: String
    /// `port`: the HAP server's TCP port; default 51827.
    public var port: Int
    /// `setup_code` or `setup_code_file`; nil only when not enabled.
    public var setupCode: HomeKitSetupCodeSetting?
    /// `pairing_file`: where the pairings and the accessory ids are kept; default `<state dir>/homekit.json`.
    public var pairingFile: String

    public static let defaultPort = 51827
    /// The longest `name` (characters).
    public static let maximumNameLength = 64
    /// The pairing file's name in the state directory.
    public static let defaultPairingFileName = "homekit.json"

    public init(
        enabled: Bool = false, name: String, port: Int = HomeKitSection.defaultPort,
        setupCode: HomeKitSetupCodeSetting? = nil, pairingFile: String
    ) {
        self.enabled = enabled
        self.name = name
        self.port = port
        self.setupCode = setupCode
        self.pairingFile = pairingFile
    }

    /// `Thuis <bridge name>`.
    public static func defaultName(bridge: String) -> String { "Thuis \(bridge)" }
}

/// The setup code as devices.toml gives it: inline, or a file whose first line is the code.
public enum HomeKitSetupCodeSetting: Sendable, Equatable {
    /// `setup_code`: the eight digits (checked).
    case inline(digits: String)
    /// `setup_code_file`: a file readable only by the bridge's user.
    case file(String)

    /// The key it was given with.
    public var key: String {
        switch self {
        case .inline: "setup_code"
        case .file: "setup_code_file"
        }
    }

    /// `homekit.<key>`.
    public var keyPath: String { "homekit." + key }

    /// The code, `XXX-XX-XXX` (read from its file and checked like `check-config` does); never logged.
    public func read() throws(HomeKitSetupCodeError) -> String {
        switch self {
        case .inline(let digits):
            return HomeKitSetupCodeRules.formatted(digits)
        case .file(let path):
            let text = try SecretFile.read(path, HomeKitSetupCodeError.self)
            let line = String(text.prefix { $0 != "\n" && $0 != "\r" })
            do {
                return HomeKitSetupCodeRules.formatted(try HomeKitSetupCodeRules.digits(of: line))
            } catch .forbidden {
                throw .forbidden("the code in the file")
            }
        }
    }
}
