/// The Z-Wave network key (S0 security): 16 bytes, read from `[zwave] network_key_file`, handed to OpenZWave
/// as its `NetworkKey` option. Never printed or logged: its description, debug description and mirror say only
/// that it is a key, and no problem message quotes the file's contents.
public struct ZWaveNetworkKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The 16 bytes.
    public let bytes: [UInt8]

    public static let byteCount = 16

    /// Parses the text of a key file: 32 hex digits (optionally prefixed `0x`), or OpenZWave's format, 16
    /// comma-separated bytes (`0x01, 0x02, ..., 0x10`). Spaces and line breaks are ignored.
    public init(text: String) throws(ZWaveNetworkKeyError) {
        let compact = String(text.unicodeScalars.filter { !$0.properties.isWhitespace })
        var bytes: [UInt8] = []
        if compact.contains(",") {
            let items = compact.split(separator: ",", omittingEmptySubsequences: false)
            guard items.count == Self.byteCount else {
                throw .malformed("found \(items.count) comma-separated values")
            }
            for item in items {
                let digits = Self.droppingHexPrefix(item)
                guard (1...2).contains(digits.count), let byte = UInt8(digits, radix: 16) else {
                    throw .malformed("a comma-separated value is not a byte in hex")
                }
                bytes.append(byte)
            }
        } else {
            let digits = Self.droppingHexPrefix(Substring(compact))
            guard digits.allSatisfy(\.isHexDigit) else { throw .malformed("found a character that is not a hex digit") }
            guard digits.count == Self.byteCount * 2 else { throw .malformed("found \(digits.count) hex digits") }
            var index = digits.startIndex
            while index < digits.endIndex {
                let next = digits.index(index, offsetBy: 2)
                guard let byte = UInt8(digits[index..<next], radix: 16) else {
                    throw .malformed("found a character that is not a hex digit")
                }
                bytes.append(byte)
                index = next
            }
        }
        guard bytes.contains(where: { $0 != 0 }) else { throw .allZero }
        self.bytes = bytes
    }

    /// Reads the key file at `path` and checks it: it exists and can be read, neither its group nor others have
    /// any permission on it (only the service's user may read the key: `chmod 600`), and it holds a key.
    public init(contentsOfFile path: String) throws(ZWaveNetworkKeyError) {
        let text = try SecretFile.read(path, ZWaveNetworkKeyError.self)
        try self.init(text: text)
    }

    /// OpenZWave's `NetworkKey` option: `0x01,0x02,...` (no spaces: it is passed on OpenZWave's command line).
    public var openZWaveOption: String {
        bytes.map { "0x" + (($0 < 0x10) ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined(separator: ",")
    }

    public var description: String { "<Z-Wave network key>" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    private static func droppingHexPrefix(_ text: Substring) -> Substring {
        text.hasPrefix("0x") || text.hasPrefix("0X") ? text.dropFirst(2) : text
    }
}

/// Why a Z-Wave network key file was refused; the messages never quote the key.
public enum ZWaveNetworkKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file cannot be read (the reason in words).
    case unreadable(String)
    /// Its group or others have permissions (the mode bits).
    case exposed(UInt32)
    /// The contents are not a key (what is wrong, without the contents).
    case malformed(String)
    /// Sixteen zero bytes: the key OpenZWave uses during inclusion, no secret.
    case allZero

    public var description: String {
        switch self {
        case .unreadable(let reason):
            "cannot be read: \(reason)"
        case .exposed(let mode):
            SecretFile.exposedMessage(mode, secret: "the network key")
        case .malformed(let detail):
            "not a network key: expected 16 bytes as 32 hex digits (or as OpenZWave's 16 comma-separated "
                + "0x.. bytes), \(detail)"
        case .allZero:
            "not a network key: all 16 bytes are zero; generate a random one"
        }
    }
}
