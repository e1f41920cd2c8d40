import Crypto
import Foundation
import TestSupport
import Testing

@testable import HomeKit

/// SRP-6a against RFC 5054's appendix B (1024-bit group, SHA-1) and the HAP specification's test vectors
/// (3072-bit group, SHA-512): the same I, P, s, a and b in both.
@Suite struct SRPTests {
    static let salt = SRPPrimes.bytes("BEB25379 D1A8581E B5A72767 3A2441EE")
    static let a = SRPPrimes.bytes("60975527 035CF2AD 1989806F 0407210B C81EDC04 E2762A56 AFD529DD DA2D4393")
    static let b = SRPPrimes.bytes("E487CB59 D31AC550 471E81F0 0F6928E0 1DDA08E9 74A004F4 9E61F5D1 05284D20")

    @Test func rfc5054AppendixB() throws {
        let group = SRPGroup.rfc5054Test
        #expect(
            try SRPServer.multiplier(group).bytes == SRPPrimes.bytes("7556AA04 5AEF2CDD 07ABAF0F 665C3E81 8913186F"))
        let verifier = try SRPServer.verifier(group: group, username: "alice", password: "password123", salt: Self.salt)
        #expect(
            verifier
                == SRPPrimes.bytes(
                    """
                    7E273DE8 696FFC4F 4E337D05 B4B375BE B0DDE156 9E8FA00A 9886D812 9BADA1F1 822223CA 1A605B53 0E379BA4
                    729FDC59 F105B478 7E5186F5 C671085A 1447B52A 48CF1970 B4FB6F84 00BBF4CE BFBB1681 52E08AB5 EA53D15C
                    1AFF87B2 B9DA6E04 E058AD51 CC72BFC9 033B564E 26480D78 E955A5E2 9E7AB245 DB2BE315 E2099AFB
                    """))
        let server = try SRPServer(
            group: group, username: "alice", salt: Self.salt, verifier: verifier, secret: Self.b)
        #expect(
            server.publicKey
                == SRPPrimes.bytes(
                    """
                    BD0C6151 2C692C0C B6D041FA 01BB152D 4916A1E7 7AF46AE1 05393011 BAF38964 DC46A067 0DD125B9 5A981652
                    236F99D9 B681CBF8 7837EC99 6C6DA044 53728610 D0C6DDB5 8B318885 D7D82C7F 8DEB75CE 7BD4FBAA 37089E6F
                    9C6059F3 88838E7A 00030B33 1EB76840 910440B1 B27AAEAE EB4012B7 D7665238 A8E3FB00 4B117B58
                    """))
        let clientKey = SRPPrimes.bytes(
            """
            61D5E490 F6F1B795 47B0704C 436F523D D0E560F0 C64115BB 72557EC4 4352E890 3211C046 92272D8B 2D1A5358
            A2CF1B6E 0BFCF99F 921530EC 8E393561 79EAE45E 42BA92AE ACED8251 71E1E8B9 AF6D9C03 E1327F44 BE087EF0
            6530E69F 66615261 EEF54073 CA11CF58 58F0EDFD FE15EFEA B349EF5D 76988A36 72FAC47B 0769447B
            """)
        #expect(try clientPublicKey(group, Self.a) == clientKey)
        #expect(
            server.scrambler(clientKey: clientKey) == SRPPrimes.bytes("CE38B959 3487DA98 554ED47D 70A7AE5F 462EF019"))
        #expect(
            try server.premasterSecret(clientKey: clientKey)
                == SRPPrimes.bytes(
                    """
                    B0DC82BA BCF30674 AE450C02 87745E79 90A3381F 63B387AA F271A10D 233861E3 59B48220 F7C4693C 9AE12B0A
                    6F67809F 0876E2D0 13800D6C 41BB59B6 D5979B5C 00A172B4 A2A5903A 0BDCAF8A 709585EB 2AFAFA8F 3499B200
                    210DCC1F 10EB3394 3CD67FC8 8A2F39A4 BE5BEC4E C0A3212D C346D7E4 74B29EDE 8A469FFE CA686E5A
                    """))
    }

    @Test func homeKitVectors() throws {
        let group = SRPGroup.homeKit
        let verifier = try SRPServer.verifier(group: group, username: "alice", password: "password123", salt: Self.salt)
        #expect(verifier == SRPPrimes.bytes(HAPVectors.v))
        let server = try SRPServer(group: group, username: "alice", salt: Self.salt, verifier: verifier, secret: Self.b)
        #expect(server.publicKey == SRPPrimes.bytes(HAPVectors.B))
        let clientKey = SRPPrimes.bytes(HAPVectors.A)
        #expect(try clientPublicKey(group, Self.a) == clientKey)
        #expect(server.scrambler(clientKey: clientKey) == SRPPrimes.bytes(HAPVectors.u))
        let secret = try server.premasterSecret(clientKey: clientKey)
        #expect(secret == SRPPrimes.bytes(HAPVectors.S))
        #expect(group.digest(secret) == SRPPrimes.bytes(HAPVectors.K))
    }

    /// k of HomeKit's group, as controllers (aiohomekit among them) hard-code it.
    @Test func homeKitMultiplier() throws {
        #expect(
            try SRPServer.multiplier(.homeKit).bytes
                == SRPPrimes.bytes(
                    "a9c2e2559bf0ebb53f0cbbf62282906bede7f2182f00678211fbd5bde5b285033a4993503b87397f9be5ec02080fedbc0835587ad039060879b8621e8c3659e0"
                        .uppercased()))
    }

    /// A random server's B is always as long as N: its minimal bytes (as sent) and its padded bytes (as hashed in u)
    /// are the same, so a controller that hashes B as sent (aiohomekit) agrees. 1,024 draws: with the redraw keyed on
    /// the first byte of the minimal bytes (never 0), about 98 % of such runs held a short B.
    @Test func aRandomServersPublicKeyIsNeverShorterThanN() throws {
        for _ in 0..<1024 {
            let server = try SRPServer(
                username: "Pair-Setup", password: "031-45-154", salt: [UInt8](repeating: 1, count: 16))
            #expect(server.publicKey.count == 384)
        }
    }

    /// A whole exchange with a controller computed here (the client side of RFC 5054): the right code is
    /// accepted with a matching M2 and K on both sides, a wrong code refused, A = 0 and A = N refused.
    @Test func exchange() throws {
        let salt = (0..<16).map { UInt8($0 * 7) }
        let server = try SRPServer(username: "Pair-Setup", password: "031-45-154", salt: salt)
        #expect(server.publicKey.count == 384 && server.publicKey.first != 0)
        let client = try SRPClient(server: server, password: "031-45-154")
        #expect(client.publicKey.count <= 384 && client.publicKey.first != 0)
        let (m2, key) = try server.verify(clientKey: client.publicKey, clientProof: client.proof)
        #expect(key == client.sessionKey)
        #expect(m2 == client.expectedServerProof)

        let wrong = try SRPClient(server: server, password: "031-45-155")
        #expect(throws: SRPError.proofMismatch) {
            try server.verify(clientKey: wrong.publicKey, clientProof: wrong.proof)
        }
        #expect(throws: SRPError.invalidClientKey) { try server.verify(clientKey: [0], clientProof: client.proof) }
        #expect(throws: SRPError.invalidClientKey) {
            try server.verify(clientKey: SRPGroup.homeKit.prime, clientProof: client.proof)
        }
        #expect(throws: SRPError.invalidClientKey) {
            try server.verify(clientKey: [0] + client.publicKey + [0], clientProof: client.proof)
        }
    }

    static let username = "Pair-Setup"
    static let password = "031-45-154"
    static let exchangeSalt = (0..<16).map { UInt8($0 * 7) }

    /// The first secret of a fixed sequence (SHA-256 of a counter) whose public key has a leading zero byte
    /// (1 in 256).
    static func secret(leadingZeroIn publicKey: ([UInt8]) throws -> [UInt8]) throws -> [UInt8] {
        try secret { try publicKey($0).count < 384 }
    }

    /// The first secret of a fixed sequence (SHA-256 of a counter) that `condition` accepts, in 4096 tries.
    static func secret(where condition: ([UInt8]) throws -> Bool) throws -> [UInt8] {
        for counter in 0..<4096 {
            let secret = Array(SHA256.hash(data: Array("secret \(counter)".utf8)))
            if try condition(secret) { return secret }
        }
        throw SRPError.arithmetic("no secret found in 4096 tries")
    }

    /// Controllers in each convention (HomeKit ADK's, HAP-python's, aiohomekit's), with an S and then a K that
    /// have a leading zero byte (where they differ): each M1 is accepted, answered with its M2 and its K.
    @Test func eachConventionIsAccepted() throws {
        let group = SRPGroup.homeKit
        let server = try SRPServer(username: Self.username, password: Self.password, salt: Self.exchangeSalt)
        func premaster(_ a: [UInt8]) throws -> ([UInt8], [UInt8]) {
            let clientKey = try clientPublicKey(group, a)
            return (clientKey, try server.premasterSecret(clientKey: clientKey))
        }
        let zeroS = try Self.secret { try premaster($0).1.count < 384 }
        let zeroK = try Self.secret { group.digest(try premaster($0).1).first == 0 }
        for a in [zeroS, zeroK] {
            let (clientKey, secret) = try premaster(a)
            let padded = SRPServer.pad(clientKey, to: 384)
            let conventions = [
                ("adk", clientKey, group.digest(secret)),
                ("hap", clientKey, SRPServer.minimal(group.digest(secret))),
                ("aio", padded, group.digest(SRPServer.pad(secret, to: 384))),
            ]
            for (name, sentKey, key) in conventions {
                let proof = SRPServer.proof(
                    group: group, username: Self.username, salt: Self.exchangeSalt, clientKey: sentKey,
                    serverKey: server.publicKey, sessionKey: key)
                let (m2, matched) = try server.verify(clientKey: sentKey, clientProof: proof)
                #expect(matched == key && m2 == group.digest(sentKey, proof, key), "\(name)")
            }
        }
    }

    /// A server whose B, and a controller whose A, have a leading zero byte.
    static func leadingZeroPair() throws -> (server: SRPServer, b: [UInt8], a: [UInt8]) {
        let group = SRPGroup.homeKit
        let verifier = try SRPServer.verifier(
            group: group, username: username, password: password, salt: exchangeSalt)
        let b = try secret { secret in
            try SRPServer(
                group: group, username: username, salt: exchangeSalt, verifier: verifier, secret: secret
            ).publicKey
        }
        let server = try SRPServer(
            group: group, username: username, salt: exchangeSalt, verifier: verifier, secret: b)
        let a = try secret { try clientPublicKey(group, $0) }
        return (server, b, a)
    }

    /// A and B with a leading zero byte: padded in u, minimal in M1, and both sides agree on K, M1 and M2 (the
    /// exchange that failed 1 in 256 when the sides disagreed).
    @Test func leadingZeroKeysInteroperate() throws {
        let (server, _, a) = try Self.leadingZeroPair()
        #expect(server.publicKey.count < 384 && server.publicKey.first != 0)
        let client = try SRPClient(
            group: .homeKit, username: Self.username, salt: Self.exchangeSalt, serverKey: server.publicKey,
            password: Self.password, secret: a)
        #expect(client.publicKey.count < 384 && client.publicKey.first != 0)
        #expect(
            server.scrambler(clientKey: client.publicKey)
                == Array(
                    SHA512.hash(
                        data: [UInt8](repeating: 0, count: 384 - client.publicKey.count) + client.publicKey
                            + [UInt8](repeating: 0, count: 384 - server.publicKey.count) + server.publicKey)))
        let (m2, key) = try server.verify(clientKey: client.publicKey, clientProof: client.proof)
        #expect(key == client.sessionKey && m2 == client.expectedServerProof)
        // The same proof with A sent padded: HomeKit ADK's convention hashes MIN(A), so it still matches.
        let padded = [UInt8](repeating: 0, count: 384 - client.publicKey.count) + client.publicKey
        let (paddedM2, paddedKey) = try server.verify(clientKey: padded, clientProof: client.proof)
        #expect(paddedM2 == m2 && paddedKey == key)
        var wrongProof = client.proof
        wrongProof[0] ^= 1
        #expect(throws: SRPError.proofMismatch) { try server.verify(clientKey: padded, clientProof: wrongProof) }
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// `HAP_PYTHON` (CI: the Home Assistant venv, where HAP-python comes with it), else the venv `.build-py`.
    static let python =
        ProcessInfo.processInfo.environment["HAP_PYTHON"]
        ?? packageRoot.appendingPathComponent(".build-py/bin/python").path

    /// HAP-python's accessory (`pyhap.hsrp.Server`) against the controller here (HomeKit ADK's convention), and
    /// the accessory here against a controller written in Python in HAP-python's, HomeKit ADK's and aiohomekit's
    /// conventions, all with leading-zero A and B.
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: python),
            "HAP_PYTHON, or a venv with HAP-python at .build-py (python3 -m venv .build-py; pip install HAP-python)"))
    func interoperatesWithHAPPython() async throws {
        let (server, b, a) = try Self.leadingZeroPair()
        let client = try SRPClient(
            group: .homeKit, username: Self.username, salt: Self.exchangeSalt, serverKey: server.publicKey,
            password: Self.password, secret: a)
        let input: [String: [UInt8]] = [
            "I": Array(Self.username.utf8), "p": Array(Self.password.utf8), "s": Self.exchangeSalt, "b": b,
            "A": client.publicKey, "M1": client.proof, "a": a, "B": server.publicKey,
        ]
        let json = try JSONSerialization.data(withJSONObject: input.mapValues { Hex.encode($0) })
        let script = Self.packageRoot.appendingPathComponent("Tests/HomeKitTests/Python/hap_python_srp.py").path
        let (status, stdout, stderr) = await runPython(Self.python, [script], input: json)
        #expect(status == 0, "\(String(decoding: stderr, as: UTF8.self))")
        let out = try #require(try JSONSerialization.jsonObject(with: stdout) as? [String: Any])
        func bytes(_ key: String) -> [UInt8]? { (out[key] as? String).flatMap(Hex.decode) }

        // HAP-python's accessory (the same b as `server`) and the controller here.
        #expect(bytes("pyB") == server.publicKey)
        #expect(bytes("pyM2") == client.expectedServerProof, "HAP-python refused the controller's M1")
        #expect(bytes("pyK") == client.sessionKey)
        // The Python controller in each convention and the accessory here.
        #expect(bytes("adkA") == client.publicKey && bytes("adkM1") == client.proof)
        for convention in ["hap", "adk", "aio"] {
            let clientA = try #require(bytes(convention + "A"))
            let (m2, key) = try server.verify(clientKey: clientA, clientProof: try #require(bytes(convention + "M1")))
            #expect(m2 == bytes(convention + "M2") && key == bytes(convention + "K"), "\(convention)")
        }
    }
}

/// A = g^a mod N.
func clientPublicKey(_ group: SRPGroup, _ a: [UInt8]) throws -> [UInt8] {
    try BigNumber(bytes: group.generator).power(BigNumber(bytes: a), modulo: BigNumber(bytes: group.prime)).bytes
}
