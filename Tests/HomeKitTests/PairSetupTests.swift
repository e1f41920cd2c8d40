import Crypto
import Testing

@testable import HomeKit

/// Pair Setup M1 to M6 with a controller written here from the HAP specification (SRP from RFC 5054, keys from
/// swift-crypto): a pairing with the right code, and each wrong input answered with the specification's error.
@Suite struct PairSetupTests {
    let identity = PairSetup.Identity(pairingID: "1A:2B:3C:4D:5E:6F", signingKey: .init())
    let code: SetupCode

    init() throws { code = try SetupCode("031-45-154") }

    @Test func pairsAndExchangesLongTermKeys() throws {
        var setup = PairSetup(identity: identity, setupCode: code)
        let controllerKey = Curve25519.Signing.PrivateKey()
        let m2 = setup.handle(TLV8([(.state, [1]), (.method, [0])]), isPaired: false, failedAttempts: 0).response
        #expect(m2.byte(.state) == 2 && m2[.error] == nil)
        let salt = try #require(m2[.salt])
        let serverKey = try #require(m2[.publicKey])
        let client = try SRPClient(
            group: .homeKit, username: "Pair-Setup", salt: salt, serverKey: serverKey, password: "031-45-154")
        let m4 = setup.handle(
            TLV8([(.state, [3]), (.publicKey, client.publicKey), (.proof, client.proof)]), isPaired: false,
            failedAttempts: 0)
        #expect(m4.response.byte(.state) == 4 && m4.response[.proof] == client.expectedServerProof)

        let key = HAPKeys.derive(client.sessionKey, salt: "Pair-Setup-Encrypt-Salt", info: "Pair-Setup-Encrypt-Info")
        let x = HAPKeys.derive(
            client.sessionKey, salt: "Pair-Setup-Controller-Sign-Salt", info: "Pair-Setup-Controller-Sign-Info")
        let id = Array("controller-1".utf8)
        let ltpk = Array(controllerKey.publicKey.rawRepresentation)
        let signature = Array(try controllerKey.signature(for: x.withUnsafeBytes { Array($0) } + id + ltpk))
        let sealed = try #require(
            HAPKeys.seal(
                TLV8([(.identifier, id), (.publicKey, ltpk), (.signature, signature)]).encoded, key: key,
                nonce: "PS-Msg05"))
        let m6 = setup.handle(TLV8([(.state, [5]), (.encryptedData, sealed)]), isPaired: false, failedAttempts: 0)
        #expect(m6.paired == Pairing(identifier: "controller-1", publicKey: ltpk, isAdmin: true))
        let sealedM6 = try #require(m6.response[.encryptedData])
        let inner = try TLV8(decoding: try #require(HAPKeys.open(sealedM6, key: key, nonce: "PS-Msg06")))
        #expect(inner[.identifier] == Array("1A:2B:3C:4D:5E:6F".utf8))
        let accessoryX = HAPKeys.derive(
            client.sessionKey, salt: "Pair-Setup-Accessory-Sign-Salt", info: "Pair-Setup-Accessory-Sign-Info")
        let accessoryKey = try Curve25519.Signing.PublicKey(rawRepresentation: try #require(inner[.publicKey]))
        #expect(
            accessoryKey.isValidSignature(
                try #require(inner[.signature]),
                for: accessoryX.withUnsafeBytes { Array($0) } + Array("1A:2B:3C:4D:5E:6F".utf8)
                    + Array(accessoryKey.rawRepresentation)))
    }

    @Test func wrongCodeIsAnAuthenticationErrorAndCountsAsAFailedAttempt() throws {
        var setup = PairSetup(identity: identity, setupCode: code)
        let m2 = setup.handle(TLV8([(.state, [1]), (.method, [0])]), isPaired: false, failedAttempts: 0).response
        let client = try SRPClient(
            group: .homeKit, username: "Pair-Setup", salt: try #require(m2[.salt]),
            serverKey: try #require(m2[.publicKey]), password: "031-45-155")
        let m4 = setup.handle(
            TLV8([(.state, [3]), (.publicKey, client.publicKey), (.proof, client.proof)]), isPaired: false,
            failedAttempts: 0)
        #expect(m4.response.byte(.error) == PairingError.authentication.rawValue)
        #expect(m4.failedAttempt && m4.paired == nil && m4.response[.proof] == nil)
    }

    @Test func refusals() {
        var setup = PairSetup(identity: identity, setupCode: code)
        let m1 = TLV8([(.state, [1]), (.method, [0])])
        #expect(setup.handle(m1, isPaired: true, failedAttempts: 0).response.byte(.error) == 0x06)
        #expect(setup.handle(m1, isPaired: false, failedAttempts: 100).response.byte(.error) == 0x05)
        // M3 before M1, M5 before M3: out of order.
        var fresh = PairSetup(identity: identity, setupCode: code)
        #expect(
            fresh.handle(TLV8([(.state, [3]), (.publicKey, [1]), (.proof, [2])]), isPaired: false, failedAttempts: 0)
                .response.byte(.error) == 0x01)
        #expect(
            fresh.handle(TLV8([(.state, [5]), (.encryptedData, [1])]), isPaired: false, failedAttempts: 0).response
                .byte(.error) == 0x01)
    }
}
