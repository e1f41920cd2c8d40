import Crypto
import HomeKitClient
import Testing

@testable import HomeKit

/// Pair Verify M1 to M4 with a controller written here from the HAP specification, then the encrypted session
/// both ways; an unknown controller, a bad signature and a tampered frame are refused.
@Suite struct PairVerifyTests {
    let identity = PairSetup.Identity(pairingID: "1A:2B:3C:4D:5E:6F", signingKey: .init())
    let controllerKey = Curve25519.Signing.PrivateKey()

    /// Runs M1 to M4 as `controllerID` signing with `signer`; returns M4 and the controller's shared secret.
    func verify(known: [Pairing], controllerID: String, signer: Curve25519.Signing.PrivateKey) throws
        -> (PairVerify.Outcome, [UInt8])
    {
        var verify = PairVerify(identity: identity)
        let ephemeral = Curve25519.KeyAgreement.PrivateKey()
        let m2 = verify.handle(
            TLV8([(.state, [1]), (.publicKey, Array(ephemeral.publicKey.rawRepresentation))]),
            pairing: { id in known.first { $0.identifier == id } }
        ).response
        let accessoryKey = try #require(m2[.publicKey])
        let shared = try ephemeral.sharedSecretFromKeyAgreement(
            with: .init(rawRepresentation: accessoryKey)
        ).withUnsafeBytes { Array($0) }
        let key = HAPKeys.derive(shared, salt: "Pair-Verify-Encrypt-Salt", info: "Pair-Verify-Encrypt-Info")
        let sealedM2 = try #require(m2[.encryptedData])
        let inner = try TLV8(decoding: try #require(HAPKeys.open(sealedM2, key: key, nonce: "PV-Msg02")))
        let ephemeralBytes = Array(ephemeral.publicKey.rawRepresentation)
        #expect(
            identity.signingKey.publicKey.isValidSignature(
                try #require(inner[.signature]),
                for: accessoryKey + Array(identity.pairingID.utf8) + ephemeralBytes))
        let id = Array(controllerID.utf8)
        let signature = Array(try signer.signature(for: ephemeralBytes + id + accessoryKey))
        let sealed = try #require(
            HAPKeys.seal(TLV8([(.identifier, id), (.signature, signature)]).encoded, key: key, nonce: "PV-Msg03"))
        let m4 = verify.handle(
            TLV8([(.state, [3]), (.encryptedData, sealed)]), pairing: { id in known.first { $0.identifier == id } })
        return (m4, shared)
    }

    var pairing: Pairing {
        Pairing(
            identifier: "controller-1", publicKey: Array(controllerKey.publicKey.rawRepresentation), isAdmin: true)
    }

    @Test func verifiedSessionCarriesFramesBothWays() throws {
        let (m4, shared) = try verify(known: [pairing], controllerID: "controller-1", signer: controllerKey)
        #expect(m4.response.byte(.state) == 4 && m4.response[.error] == nil)
        var session = SecureSession(keys: try #require(m4.session))
        #expect(session.controller == pairing)

        // The controller's side: it writes with the write key and reads with the read key.
        let controllerSide = SessionKeys(shared: shared, controller: pairing)
        let request = Array("GET /accessories HTTP/1.1\r\n\r\n".utf8) + [UInt8](repeating: 0x41, count: 1500)
        var nonce: UInt64 = 0
        var wire: [UInt8] = []
        for chunk in [request.prefix(1024), request.dropFirst(1024)] {
            let length = [UInt8(chunk.count & 0xFF), UInt8(chunk.count >> 8)]
            let box = try ChaChaPoly.seal(
                chunk, using: controllerSide.write, nonce: try frameNonce(nonce),
                authenticating: length)
            nonce += 1
            wire += length + Array(box.ciphertext) + Array(box.tag)
        }
        // Delivered in pieces, as TCP may: the plaintext comes out whole and in order.
        var received: [UInt8] = []
        for piece in stride(from: 0, to: wire.count, by: 100) {
            received += try session.open(Array(wire[piece..<min(piece + 100, wire.count)]))
        }
        #expect(received == request)

        let answer = try session.seal([UInt8](repeating: 0x42, count: 2000))
        #expect(Int(answer[0]) | Int(answer[1]) << 8 == 1024)
        let first = try ChaChaPoly.open(
            try ChaChaPoly.SealedBox(
                nonce: try frameNonce(0), ciphertext: answer[2..<1026], tag: answer[1026..<1042]),
            using: controllerSide.read, authenticating: answer[0..<2])
        #expect(Array(first) == [UInt8](repeating: 0x42, count: 1024))
    }

    @Test func tamperedFrameEndsTheSession() throws {
        let (m4, shared) = try verify(known: [pairing], controllerID: "controller-1", signer: controllerKey)
        let keys = try #require(m4.session)
        let controllerSide = SessionKeys(shared: shared, controller: pairing)
        let box = try ChaChaPoly.seal(
            Array("GET / HTTP/1.1\r\n\r\n".utf8), using: controllerSide.write,
            nonce: try frameNonce(0), authenticating: [18, 0])
        let frame: [UInt8] = [18, 0] + Array(box.ciphertext) + Array(box.tag)
        var intact = SecureSession(keys: keys)
        #expect(try intact.open(frame) == Array("GET / HTTP/1.1\r\n\r\n".utf8))
        for index in [0, 5, frame.count - 1] {  // the length (authenticated data), the ciphertext, the tag
            var tampered = frame
            tampered[index] ^= index == 0 ? 2 : 1  // a length of 16, not 18: still a whole frame
            var session = SecureSession(keys: keys)
            #expect(throws: SecureSession.Failure.authentication) { try session.open(tampered) }
        }
        var session = SecureSession(keys: keys)
        #expect(throws: SecureSession.Failure.authentication) { try session.open([0x01, 0x08]) }  // 2049 bytes
    }

    @Test func unknownControllerOrWrongKeyIsRefused() throws {
        let (unknown, _) = try verify(known: [pairing], controllerID: "controller-2", signer: controllerKey)
        #expect(unknown.response.byte(.error) == PairingError.authentication.rawValue && unknown.session == nil)
        let (forged, _) = try verify(known: [pairing], controllerID: "controller-1", signer: .init())
        #expect(forged.response.byte(.error) == PairingError.authentication.rawValue && forged.session == nil)
    }
}
