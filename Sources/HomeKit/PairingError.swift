/// The error codes of a pairing answer (`kTLVType_Error`), as the HAP specification numbers them.
public enum PairingError: UInt8, Sendable, Hashable, CustomStringConvertible {
    case unknown = 0x01
    /// A wrong setup code, or a signature or proof that does not verify.
    case authentication = 0x02
    case backoff = 0x03
    /// 100 failed attempts: no pairing until every pairing is reset.
    case maxPeers = 0x04
    case maxTries = 0x05
    /// Already paired (Pair Setup), or the operation is not available.
    case unavailable = 0x06
    /// Another Pair Setup is in progress.
    case busy = 0x07

    public var description: String {
        switch self {
        case .unknown: "unknown error"
        case .authentication: "authentication failed"
        case .backoff: "try again later"
        case .maxPeers: "no room for another pairing"
        case .maxTries: "too many failed attempts (reset the pairings to pair again)"
        case .unavailable: "not available (already paired)"
        case .busy: "another pairing is in progress"
        }
    }
}

/// A controller the accessory is paired with: its pairing id, its long-term Ed25519 public key, and whether it
/// is an admin (may add and remove pairings).
public struct Pairing: Sendable, Hashable, Codable {
    public let identifier: String
    public let publicKey: [UInt8]
    public var isAdmin: Bool

    public init(identifier: String, publicKey: [UInt8], isAdmin: Bool) {
        self.identifier = identifier
        self.publicKey = publicKey
        self.isAdmin = isAdmin
    }
}
