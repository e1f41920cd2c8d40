internal import Crypto

/// Why SRP-6a could not go on.
public enum SRPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The controller's public key is 0 modulo N (the attack the protocol must refuse).
    case invalidClientKey
    /// The controller's proof does not match: the setup code it used is not ours.
    case proofMismatch
    /// OpenSSL's arithmetic failed (out of memory).
    case arithmetic(String)

    public var description: String {
        switch self {
        case .invalidClientKey: "the controller's SRP public key is invalid (0 modulo N)"
        case .proofMismatch: "the controller's SRP proof does not match (wrong setup code)"
        case .arithmetic(let name): "big-number arithmetic failed (\(name))"
        }
    }
}

/// The group and hash of an SRP-6a exchange: HomeKit uses RFC 5054's 3072-bit group with SHA-512; RFC 5054's
/// 1024-bit group with SHA-1 is here for its test vectors.
public struct SRPGroup: Sendable {
    public enum Hash: Sendable { case sha1, sha512 }

    let prime: [UInt8]
    let generator: [UInt8]
    let hash: Hash

    func digest(_ parts: [UInt8]...) -> [UInt8] {
        switch hash {
        case .sha1:
            var hasher = Insecure.SHA1()
            for part in parts { hasher.update(data: part) }
            return Array(hasher.finalize())
        case .sha512:
            var hasher = SHA512()
            for part in parts { hasher.update(data: part) }
            return Array(hasher.finalize())
        }
    }

    /// HomeKit's group: RFC 5054's 3072-bit prime, generator 5, SHA-512.
    public static let homeKit = SRPGroup(prime: SRPPrimes.rfc5054Group3072, generator: [5], hash: .sha512)
    /// RFC 5054's 1024-bit group, generator 2, SHA-1 (its appendix B's test vectors use it).
    public static let rfc5054Test = SRPGroup(prime: SRPPrimes.rfc5054Group1024, generator: [2], hash: .sha1)
}

/// The accessory's side of SRP-6a as HomeKit's Pair Setup runs it (M2 to M4): the verifier from the setup code,
/// the public key B, and the check of the controller's proof M1, answered with M2 and the shared session key K.
///
/// Conventions (RFC 5054 with HomeKit's hash): k = H(N | PAD(g)), x = H(s | H(I ":" P)), u = H(PAD(A) | PAD(B)),
/// S = (A · v^u)^b mod N, K = H(S), M1 = H(H(N) xor H(g) | H(I) | s | A | B | K), M2 = H(A | M1 | K). PAD is
/// left-padding with zeros to the length of N (384 bytes), in k and u. Implementations differ on the leading
/// zero bytes elsewhere (each difference shows 1 time in 256), so the accessory accepts M1 in each of these
/// conventions and answers M2 and derives its keys with the one that matched:
/// - Apple's HomeKit ADK (`HAP_srp_session_key`, `HAP_srp_proof_m1`, `HAP_srp_proof_m2`), the reference iOS pairs
///   with: K = H(MIN(S)) whole (64 bytes); MIN(A) and MIN(B) in M1, MIN(A) in M2. ``SRPClient`` uses it.
/// - HAP-python (`pyhap/hsrp.py`): K = MIN(H(MIN(S))); A as sent and MIN(B) in M1, A as sent in M2.
/// - aiohomekit (`aiohomekit/crypto/srp.py`): K = H(PAD(S)) whole; A as sent (padded) and B as sent in M1.
/// MIN is the minimal big-endian bytes; B, as sent, is MIN(B); M1 is always compared and hashed whole.
public struct SRPServer: Sendable {
    public let group: SRPGroup
    public let username: String
    public let salt: [UInt8]
    /// B as sent in M2: its minimal bytes. The random server's B is always the full 384 bytes.
    public let publicKey: [UInt8]
    private let verifier: [UInt8]
    private let secret: [UInt8]

    /// A server with a random 32-byte secret b, redrawn while B would have a leading zero byte (1 in 256), that is
    /// while its minimal bytes are shorter than N: then B's minimal and padded bytes are the same, and a controller
    /// gets the same u and M1 whichever it hashes (aiohomekit hashes B as sent in u, where the server pads it).
    public init(group: SRPGroup = .homeKit, username: String, password: String, salt: [UInt8]) throws(SRPError) {
        let verifier = try Self.verifier(group: group, username: username, password: password, salt: salt)
        var generator = SystemRandomNumberGenerator()
        while true {
            let secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let server = try SRPServer(
                group: group, username: username, salt: salt, verifier: verifier, secret: secret)
            if server.publicKey.count == group.prime.count {
                self = server
                return
            }
        }
    }

    /// A server with a given secret b: for test vectors.
    init(group: SRPGroup, username: String, salt: [UInt8], verifier: [UInt8], secret: [UInt8]) throws(SRPError) {
        self.group = group
        self.username = username
        self.salt = salt
        self.verifier = verifier
        self.secret = secret
        let prime = try BigNumber(bytes: group.prime)
        let k = try Self.multiplier(group)
        let v = try BigNumber(bytes: verifier)
        let gb = try BigNumber(bytes: group.generator).power(BigNumber(bytes: secret), modulo: prime)
        publicKey = try k.times(v, modulo: prime).plus(gb, modulo: prime).bytes
    }

    /// v = g^x mod N, x = H(s | H(I ":" P)).
    static func verifier(group: SRPGroup, username: String, password: String, salt: [UInt8]) throws(SRPError)
        -> [UInt8]
    {
        let x = try BigNumber(bytes: group.digest(salt, group.digest(Array("\(username):\(password)".utf8))))
        let prime = try BigNumber(bytes: group.prime)
        return try BigNumber(bytes: group.generator).power(x, modulo: prime).bytes
    }

    /// k = H(N | PAD(g)).
    static func multiplier(_ group: SRPGroup) throws(SRPError) -> BigNumber {
        try BigNumber(bytes: group.digest(group.prime, pad(group.generator, to: group.prime.count)))
    }

    /// u = H(PAD(A) | PAD(B)).
    func scrambler(clientKey: [UInt8]) -> [UInt8] {
        group.digest(Self.pad(clientKey, to: group.prime.count), Self.pad(publicKey, to: group.prime.count))
    }

    /// S = (A · v^u)^b mod N, its minimal bytes. A longer than N is refused, as 0 modulo N is.
    func premasterSecret(clientKey: [UInt8]) throws(SRPError) -> [UInt8] {
        guard clientKey.count <= group.prime.count else { throw .invalidClientKey }
        let prime = try BigNumber(bytes: group.prime)
        let a = try BigNumber(bytes: clientKey).reduced(modulo: prime)
        guard !a.isZero else { throw .invalidClientKey }
        let vu = try BigNumber(bytes: verifier).power(BigNumber(bytes: scrambler(clientKey: clientKey)), modulo: prime)
        return try a.times(vu, modulo: prime).power(BigNumber(bytes: secret), modulo: prime).bytes
    }

    /// Checks the controller's proof M1 for its public key A, in each convention above; answers M2 and the
    /// session key K of the one that matched.
    public func verify(clientKey: [UInt8], clientProof: [UInt8]) throws(SRPError)
        -> (serverProof: [UInt8], sessionKey: [UInt8])
    {
        let secret = try premasterSecret(clientKey: clientKey)
        let whole = group.digest(secret)
        let conventions = [
            (Self.minimal(clientKey), whole),  // HomeKit ADK
            (clientKey, Self.minimal(whole)),  // HAP-python
            (clientKey, group.digest(Self.pad(secret, to: group.prime.count))),  // aiohomekit
        ]
        var matched: (serverProof: [UInt8], sessionKey: [UInt8])?
        for (a, key) in conventions {
            let expected = Self.proof(
                group: group, username: username, salt: salt, clientKey: a, serverKey: publicKey, sessionKey: key)
            if Self.constantTimeEqual(expected, clientProof), matched == nil {
                matched = (group.digest(a, expected, key), key)
            }
        }
        guard let matched else { throw .proofMismatch }
        return matched
    }

    /// M1 = H(H(N) xor H(g) | H(I) | s | A | MIN(B) | K), A and K as given.
    static func proof(
        group: SRPGroup, username: String, salt: [UInt8], clientKey: [UInt8], serverKey: [UInt8],
        sessionKey: [UInt8]
    ) -> [UInt8] {
        let hashNG = zip(group.digest(group.prime), group.digest(group.generator)).map { $0 ^ $1 }
        return group.digest(
            hashNG, group.digest(Array(username.utf8)), salt, clientKey, minimal(serverKey), sessionKey)
    }

    static func pad(_ bytes: [UInt8], to length: Int) -> [UInt8] {
        bytes.count >= length ? bytes : [UInt8](repeating: 0, count: length - bytes.count) + bytes
    }

    static func minimal(_ bytes: [UInt8]) -> [UInt8] { Array(bytes.drop { $0 == 0 }) }

    static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
