/// The dashboard's access token (`[web] auth_token` or the first line of `auth_token_file`): 16 to 256 characters of
/// `A-Z a-z 0-9 . _ ~ -`, so it goes into a header, a cookie and a URL unescaped (`openssl rand -hex 24` makes one).
/// Never printed or logged: its description, debug description and mirror say only that it is a token.
public struct DashboardToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The token's UTF-8 bytes.
    public let bytes: [UInt8]

    public static let lengths = 16...256

    /// Checks a token's text.
    public init(text: String) throws(DashboardTokenError) {
        let bytes = Array(text.utf8)
        guard Self.lengths.contains(bytes.count) else { throw .length(bytes.count) }
        guard bytes.allSatisfy(Self.isTokenByte) else { throw .characters }
        self.bytes = bytes
    }

    /// Reads the token from the first line of the file at `path`: it must be readable, only its owner may access it
    /// (`chmod 600`), and the line must be a token.
    public init(contentsOfFile path: String) throws(DashboardTokenError) {
        let text = try SecretFile.read(path, DashboardTokenError.self)
        try self.init(text: String(text.prefix { $0 != "\n" && $0 != "\r" }))
    }

    /// Whether `candidate` is this token, in time that depends only on the candidate's length (never on where the
    /// first difference is).
    public func matches(_ candidate: some Collection<UInt8>) -> Bool {
        var difference = UInt(bitPattern: candidate.count ^ bytes.count)
        var index = 0
        for byte in candidate {
            difference |= UInt(byte ^ bytes[index % bytes.count])
            index += 1
        }
        return difference == 0
    }

    public var description: String { "<dashboard token>" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: "-"):
            true
        default: false
        }
    }
}

/// Why a dashboard token was refused; the messages never quote the token.
public enum DashboardTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(String)
    case exposed(UInt32)
    case length(Int)
    case characters

    public var description: String {
        switch self {
        case .unreadable(let reason):
            "cannot be read: \(reason)"
        case .exposed(let mode):
            SecretFile.exposedMessage(mode, secret: "the token")
        case .length(let count):
            "a token must be \(DashboardToken.lengths.lowerBound) to \(DashboardToken.lengths.upperBound) characters "
                + "long (got \(count)); `openssl rand -hex 24` makes one"
        case .characters:
            "a token may only hold A-Z, a-z, 0-9, '.', '_', '~' and '-' (it goes into URLs and cookies unescaped); "
                + "`openssl rand -hex 24` makes one"
        }
    }
}
