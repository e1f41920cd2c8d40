public import Crypto
internal import FoundationEssentials

/// Pair Setup, the accessory's side (HAP specification, M1 to M6): SRP-6a with the setup code, then the exchange
/// of long-term Ed25519 keys under a ChaCha20-Poly1305 key derived from SRP's session key. One value per
/// connection; the attempt counter is the caller's (it outlives connections), see ``PairSetupAttempts``.
public struct PairSetup: Sendable {
    /// The accessory's identity: its pairing id (a MAC-like `XX:XX:XX:XX:XX:XX`) and long-term key.
    public struct Identity: Sendable {
        public let pairingID: String
        public let signingKey: Curve25519.Signing.PrivateKey

        public init(pairingID: String, signingKey: Curve25519.Signing.PrivateKey) {
            self.pairingID = pairingID
            self.signingKey = signingKey
        }
    }

    /// What one message leads to.
    public struct Outcome: Sendable {
        public let response: TLV8
        /// The controller paired by M5, to be stored before the response is sent.
        public let paired: Pairing?
        /// Whether the message counted as a failed attempt (a wrong setup code).
        public let failedAttempt: Bool
    }

    private enum Step: Sendable {
        case idle
        case awaitingProof(SRPServer)
        case awaitingExchange(sessionKey: [UInt8])
        case done
    }

    private let identity: Identity
    private let setupCode: SetupCode
    private var step = Step.idle

    public init(identity: Identity, setupCode: SetupCode) {
        self.identity = identity
        self.setupCode = setupCode
    }

    /// Answers one request. `isPaired`: the accessory has a pairing already (Pair Setup is then refused);
    /// `failedAttempts`: failed attempts so far (100 refuses every further attempt).
    public mutating func handle(_ request: TLV8, isPaired: Bool, failedAttempts: Int) -> Outcome {
        guard let state = request.byte(.state) else { return reject(1, .unknown) }
        switch (state, step) {
        case (1, _):
            if isPaired { return reject(2, .unavailable) }
            if failedAttempts >= PairSetupAttempts.maximum { return reject(2, .maxTries) }
            guard request.byte(.method) == 0 || request.byte(.method) == 1 else { return reject(2, .unknown) }
            var generator = SystemRandomNumberGenerator()
            let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            do {
                let server = try SRPServer(username: "Pair-Setup", password: setupCode.description, salt: salt)
                step = .awaitingProof(server)
                return Outcome(
                    response: TLV8([(.state, [2]), (.salt, salt), (.publicKey, server.publicKey)]), paired: nil,
                    failedAttempt: false)
            } catch {
                return reject(2, .unknown)
            }
        case (3, .awaitingProof(let server)):
            guard let clientKey = request[.publicKey], let proof = request[.proof] else {
                return reject(4, .authentication)
            }
            do {
                let (serverProof, sessionKey) = try server.verify(clientKey: clientKey, clientProof: proof)
                step = .awaitingExchange(sessionKey: sessionKey)
                return Outcome(
                    response: TLV8([(.state, [4]), (.proof, serverProof)]), paired: nil, failedAttempt: false)
            } catch {
                step = .idle
                return Outcome(
                    response: TLV8([(.state, [4]), (.error, [PairingError.authentication.rawValue])]), paired: nil,
                    failedAttempt: error == .proofMismatch)
            }
        case (5, .awaitingExchange(let sessionKey)):
            step = .done
            return exchange(request, sessionKey: sessionKey)
        default:
            step = .idle
            return reject(state &+ 1, .unknown)
        }
    }

    /// M5 → M6: the controller's long-term key, checked against its signature; the accessory's in return.
    private func exchange(_ request: TLV8, sessionKey: [UInt8]) -> Outcome {
        let key = HAPKeys.derive(sessionKey, salt: "Pair-Setup-Encrypt-Salt", info: "Pair-Setup-Encrypt-Info")
        guard let sealed = request[.encryptedData],
            let plain = HAPKeys.open(sealed, key: key, nonce: "PS-Msg05"),
            let inner = try? TLV8(decoding: plain),
            let identifier = inner[.identifier], let publicKey = inner[.publicKey],
            let signature = inner[.signature],
            let controllerKey = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey)
        else { return reject(6, .authentication) }
        let controllerX = HAPKeys.derive(
            sessionKey, salt: "Pair-Setup-Controller-Sign-Salt", info: "Pair-Setup-Controller-Sign-Info")
        guard controllerKey.isValidSignature(signature, for: HAPKeys.bytes(controllerX) + identifier + publicKey) else {
            return reject(6, .authentication)
        }
        let accessoryX = HAPKeys.derive(
            sessionKey, salt: "Pair-Setup-Accessory-Sign-Salt", info: "Pair-Setup-Accessory-Sign-Info")
        let accessoryID = Array(identity.pairingID.utf8)
        let accessoryKey = Array(identity.signingKey.publicKey.rawRepresentation)
        guard
            let accessorySignature = try? identity.signingKey.signature(
                for: HAPKeys.bytes(accessoryX) + accessoryID + accessoryKey),
            let encrypted = HAPKeys.seal(
                TLV8([(.identifier, accessoryID), (.publicKey, accessoryKey), (.signature, Array(accessorySignature))])
                    .encoded, key: key, nonce: "PS-Msg06")
        else { return reject(6, .unknown) }
        return Outcome(
            response: TLV8([(.state, [6]), (.encryptedData, encrypted)]),
            paired: Pairing(
                identifier: String(decoding: identifier, as: UTF8.self), publicKey: publicKey, isAdmin: true),
            failedAttempt: false)
    }

    private func reject(_ state: UInt8, _ error: PairingError) -> Outcome {
        Outcome(response: TLV8([(.state, [state]), (.error, [error.rawValue])]), paired: nil, failedAttempt: false)
    }
}

/// The failed Pair Setup attempts the accessory allows before it refuses every attempt (HAP specification).
public enum PairSetupAttempts {
    public static let maximum = 100
}

/// HKDF-SHA-512 keys and the ChaCha20-Poly1305 sealing of pairing messages (a 12-byte nonce: four zero bytes,
/// then eight bytes of text or a little-endian counter).
package enum HAPKeys {
    package static func derive(_ secret: [UInt8], salt: String, info: String) -> SymmetricKey {
        HKDF<SHA512>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: secret), salt: Array(salt.utf8), info: Array(info.utf8),
            outputByteCount: 32)
    }

    package static func bytes(_ key: SymmetricKey) -> [UInt8] { key.withUnsafeBytes { Array($0) } }

    package static func nonce(_ text: String) -> [UInt8] { [0, 0, 0, 0] + Array(text.utf8) }

    package static func seal(_ plain: [UInt8], key: SymmetricKey, nonce text: String) -> [UInt8]? {
        guard let nonce = try? ChaChaPoly.Nonce(data: nonce(text)),
            let box = try? ChaChaPoly.seal(plain, using: key, nonce: nonce)
        else { return nil }
        return Array(box.ciphertext) + Array(box.tag)
    }

    package static func open(_ sealed: [UInt8], key: SymmetricKey, nonce text: String) -> [UInt8]? {
        guard sealed.count >= 16, let nonce = try? ChaChaPoly.Nonce(data: nonce(text)),
            let box = try? ChaChaPoly.SealedBox(nonce: nonce, ciphertext: sealed.dropLast(16), tag: sealed.suffix(16)),
            let plain = try? ChaChaPoly.open(box, using: key)
        else { return nil }
        return Array(plain)
    }
}
