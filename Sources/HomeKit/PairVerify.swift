internal import Crypto

/// Pair Verify, the accessory's side (HAP specification, M1 to M4): an X25519 key agreement in which each side
/// signs both ephemeral keys with its long-term Ed25519 key; the result is the session's two ChaCha20-Poly1305
/// keys. One value per connection.
public struct PairVerify: Sendable {
    /// What one message leads to.
    public struct Outcome: Sendable {
        public let response: TLV8
        /// After M3 verified: the controller and the session's keys (the connection is encrypted from the next
        /// message on, after this response went out in clear).
        public let session: SessionKeys?
    }

    private enum Step: Sendable {
        case idle
        case awaitingFinish(shared: [UInt8], accessoryKey: [UInt8], controllerKey: [UInt8])
    }

    private let identity: PairSetup.Identity
    private var step = Step.idle

    public init(identity: PairSetup.Identity) { self.identity = identity }

    /// Answers one request; `pairing` looks up a controller by its pairing id.
    public mutating func handle(_ request: TLV8, pairing: (String) -> Pairing?) -> Outcome {
        switch (request.byte(.state), step) {
        case (1, _):
            guard let controllerKeyBytes = request[.publicKey],
                let controllerKey = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: controllerKeyBytes)
            else { return reject(2, .unknown) }
            let ephemeral = Curve25519.KeyAgreement.PrivateKey()
            guard let secret = try? ephemeral.sharedSecretFromKeyAgreement(with: controllerKey) else {
                return reject(2, .authentication)
            }
            let shared = secret.withUnsafeBytes { Array($0) }
            let accessoryKey = Array(ephemeral.publicKey.rawRepresentation)
            let accessoryID = Array(identity.pairingID.utf8)
            let key = HAPKeys.derive(shared, salt: "Pair-Verify-Encrypt-Salt", info: "Pair-Verify-Encrypt-Info")
            guard
                let signature = try? identity.signingKey.signature(
                    for: accessoryKey + accessoryID + controllerKeyBytes),
                let encrypted = HAPKeys.seal(
                    TLV8([(.identifier, accessoryID), (.signature, Array(signature))]).encoded, key: key,
                    nonce: "PV-Msg02")
            else { return reject(2, .unknown) }
            step = .awaitingFinish(shared: shared, accessoryKey: accessoryKey, controllerKey: controllerKeyBytes)
            return Outcome(
                response: TLV8([(.state, [2]), (.publicKey, accessoryKey), (.encryptedData, encrypted)]), session: nil)
        case (3, .awaitingFinish(let shared, let accessoryKey, let controllerKey)):
            step = .idle
            let key = HAPKeys.derive(shared, salt: "Pair-Verify-Encrypt-Salt", info: "Pair-Verify-Encrypt-Info")
            guard let sealed = request[.encryptedData],
                let plain = HAPKeys.open(sealed, key: key, nonce: "PV-Msg03"),
                let inner = try? TLV8(decoding: plain),
                let identifier = inner[.identifier], let signature = inner[.signature],
                let paired = pairing(String(decoding: identifier, as: UTF8.self)),
                let longTermKey = try? Curve25519.Signing.PublicKey(rawRepresentation: paired.publicKey),
                longTermKey.isValidSignature(signature, for: controllerKey + identifier + accessoryKey)
            else { return reject(4, .authentication) }
            return Outcome(
                response: TLV8([(.state, [4])]), session: SessionKeys(shared: shared, controller: paired))
        default:
            step = .idle
            return reject((request.byte(.state) ?? 0) &+ 1, .unknown)
        }
    }

    private func reject(_ state: UInt8, _ error: PairingError) -> Outcome {
        Outcome(response: TLV8([(.state, [state]), (.error, [error.rawValue])]), session: nil)
    }
}

/// The keys of a verified session and the controller it belongs to.
public struct SessionKeys: Sendable {
    public let controller: Pairing
    /// Accessory → controller.
    let read: SymmetricKey
    /// Controller → accessory.
    let write: SymmetricKey

    init(shared: [UInt8], controller: Pairing) {
        self.controller = controller
        read = HAPKeys.derive(shared, salt: "Control-Salt", info: "Control-Read-Encryption-Key")
        write = HAPKeys.derive(shared, salt: "Control-Salt", info: "Control-Write-Encryption-Key")
    }
}
