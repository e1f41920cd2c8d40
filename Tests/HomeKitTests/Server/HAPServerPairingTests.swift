import BridgeCore
import Crypto
import HomeKitClient
import TestSupport
import Testing

@testable import HomeKit

/// Pair Setup, Pair Verify and /pairings against the real server over TCP.
@Suite struct HAPServerPairingTests {
    let admin = Curve25519.Signing.PrivateKey()

    @Test func pairsThenVerifiesAndReadsAccessoriesEncrypted() async throws {
        try await ServerFixture.run { server in
            var advertisements = server.advertisements.makeAsyncIterator()
            let first = try #require(await advertisements.next())
            #expect(first.first { $0.0 == "sf" }?.1 == "1")
            try await server.pair("controller-A", key: admin)
            #expect(server.store.pairings.map(\.identifier) == ["controller-A"])
            #expect(server.store.pairings.first?.isAdmin == true)
            let paired = try #require(await advertisements.next())
            #expect(paired.first { $0.0 == "sf" }?.1 == "0")

            try await server.connect { client in
                let m4 = try await client.pairVerify(identifier: "controller-A", key: admin)
                #expect(m4.byte(.state) == 4 && m4[.error] == nil)
                let accessories = try await client.request("GET", "/accessories")
                #expect(accessories.status == 200)
                #expect(accessories.headers["content-type"] == "application/hap+json")
                #expect(try JSONValue.parse(accessories.body) == (await server.model.database()))
            }
            // Paired: a second Pair Setup is refused as unavailable.
            let again = try await server.connect {
                try await $0.pairSetup(code: ServerFixture.code, identifier: "controller-B", key: .init())
            }
            #expect(again.byte(.error) == PairingError.unavailable.rawValue)
        }
    }

    @Test func wrongSetupCodeIsRefusedCountedAndBackedOff() async throws {
        try await ServerFixture.run(backoff: { _ in .seconds(600) }) { server in
            try await server.connect { client in
                let m4 = try await client.pairSetup(code: "031-45-155", identifier: "controller-A", key: admin)
                #expect(m4.byte(.state) == 4 && m4.byte(.error) == PairingError.authentication.rawValue)
                #expect(server.store.failedAttempts == 1 && !server.store.isPaired)
                let m2 = try await client.post("/pair-setup", TLV8([(.state, [1]), (.method, [0])]))
                #expect(m2.tlv?.byte(.error) == PairingError.backoff.rawValue)
                let delay = try #require(m2.tlv?[.retryDelay])
                #expect(delay.count == 2 && Int(delay[0]) | Int(delay[1]) << 8 > 0)
            }
        }
    }

    /// The back-off after a wrong code survives a restart: the store keeps the time of the failed attempt.
    @Test func backoffSurvivesARestart() async throws {
        let directory = try TemporaryDirectory(prefix: "hap-backoff")
        let path = directory.file("homekit.json")
        try await ServerFixture.run(storePath: path, backoff: { _ in .seconds(600) }) { server in
            let m4 = try await server.connect {
                try await $0.pairSetup(code: "031-45-155", identifier: "controller-A", key: admin)
            }
            #expect(m4.byte(.error) == PairingError.authentication.rawValue)
        }
        try await ServerFixture.run(storePath: path, backoff: { _ in .seconds(600) }) { server in
            let m2 = try await server.connect {
                try await $0.post("/pair-setup", TLV8([(.state, [1]), (.method, [0])]))
            }
            #expect(m2.tlv?.byte(.error) == PairingError.backoff.rawValue)
            let delay = try #require(m2.tlv?[.retryDelay])
            #expect(delay.count == 2 && (500...600).contains(Int(delay[0]) | Int(delay[1]) << 8))
        }
        withExtendedLifetime(directory) {}
    }

    @Test func outOfOrderMalformedAndConcurrentPairSetupAreRefused() async throws {
        try await ServerFixture.run { server in
            try await server.connect { client in
                let m3First = try await client.post(
                    "/pair-setup", TLV8([(.state, [3]), (.publicKey, [1]), (.proof, [2])]))
                #expect(m3First.status == 200 && m3First.tlv?.byte(.error) == PairingError.unknown.rawValue)
                let malformed = try await client.request(
                    "POST", "/pair-setup", body: [0x06, 0x05, 0x01], contentType: "application/pairing+tlv8")
                #expect(malformed.status == 400 && malformed.tlv?.byte(.error) == PairingError.unknown.rawValue)
                let verifyMalformed = try await client.request(
                    "POST", "/pair-verify", body: [0x06], contentType: "application/pairing+tlv8")
                #expect(verifyMalformed.status == 400)

                // This connection starts Pair Setup; another one is busy meanwhile.
                let m2 = try await client.post("/pair-setup", TLV8([(.state, [1]), (.method, [0])]))
                #expect(m2.tlv?[.error] == nil && m2.tlv?[.salt]?.count == 16)
                #expect(m2.tlv?[.publicKey]?.count == 384)
                let other = try await server.connect {
                    try await $0.post("/pair-setup", TLV8([(.state, [1]), (.method, [0])]))
                }
                #expect(other.tlv?.byte(.error) == PairingError.busy.rawValue)
            }
            #expect(server.store.failedAttempts == 0 && !server.store.isPaired)
        }
    }

    @Test func encryptedRoutesNeedASession() async throws {
        try await ServerFixture.run { server in
            try await server.connect { client in
                for (method, path) in [
                    ("GET", "/accessories"), ("GET", "/characteristics?id=2.10"),
                    ("PUT", "/characteristics"), ("POST", "/pairings"),
                ] {
                    let response = try await client.request(method, path)
                    #expect(response.status == 470, "\(method) \(path)")
                    #expect(try JSONValue.parse(response.body)["status"] == .int(-70411))
                }
                let identify = try await client.request("POST", "/identify")
                #expect(identify.status == 204)
            }
            try await server.pair("controller-A", key: admin)
            let identify = try await server.connect { try await $0.request("POST", "/identify") }
            #expect(identify.status == 400)
        }
    }

    @Test func unknownControllerIsNotVerified() async throws {
        try await ServerFixture.run { server in
            try await server.pair("controller-A", key: admin)
            try await server.connect { client in
                let m4 = try await client.pairVerify(identifier: "controller-A", key: .init())
                #expect(m4.byte(.error) == PairingError.authentication.rawValue)
                #expect(try await client.request("GET", "/accessories").status == 470)
            }
        }
    }

    @Test func frameWithABadTagClosesTheConnection() async throws {
        try await ServerFixture.run { server in
            try await server.session("controller-A", key: admin) { client in
                #expect(try await client.request("GET", "/accessories").status == 200)
                var frame = try client.sealNext(Array("GET /accessories HTTP/1.1\r\n\r\n".utf8))
                frame[frame.count - 1] ^= 0x01
                try await client.sendRaw(frame)
                #expect(try await client.closes())
            }
            #expect(server.log.lines.contains { $0.contains("does not authenticate") })
        }
    }

    @Test func failedAttemptsReachMaxTriesAndSurviveARestart() async throws {
        let directory = try TemporaryDirectory(prefix: "hap-tries")
        let path = directory.file("homekit.json")
        let seeded = try HomeKitStore(path: path)
        for _ in 0..<99 { try seeded.noteFailedAttempt() }
        try await ServerFixture.run(storePath: path) { server in
            try await server.connect { client in
                let m4 = try await client.pairSetup(code: "031-45-155", identifier: "controller-A", key: admin)
                #expect(m4.byte(.error) == PairingError.authentication.rawValue)
                #expect(server.store.failedAttempts == 100)
                // The 101st attempt, even with the right code.
                let refused = try await client.pairSetup(
                    code: ServerFixture.code, identifier: "controller-A", key: admin)
                #expect(refused.byte(.state) == 2 && refused.byte(.error) == PairingError.maxTries.rawValue)
            }
        }
        // A restart reads the count back: still refused.
        try await ServerFixture.run(storePath: path) { server in
            #expect(server.store.failedAttempts == 100)
            let refused = try await server.connect {
                try await $0.pairSetup(code: ServerFixture.code, identifier: "controller-A", key: admin)
            }
            #expect(refused.byte(.error) == PairingError.maxTries.rawValue)
        }
        withExtendedLifetime(directory) {}
    }
}

/// The server holds at most `HAPServer.maximumConnections` connections: one more is closed at once, and a place
/// freed is taken again.
@Suite struct HAPServerConnectionLimitTests {
    /// Opens `count` connections, each answered once (so the server holds it), then runs `body` while they are open.
    static func holding(_ count: Int, on server: ServerFixture, _ body: () async throws -> Void) async throws {
        guard count > 0 else { return try await body() }
        try await server.connect { client in
            let answer = try await client.request("POST", "/identify")
            #expect(answer.status == 204)
            try await holding(count - 1, on: server, body)
        }
    }

    @Test func oneConnectionOverTheLimitIsClosed() async throws {
        try await ServerFixture.run(configure: { $0.connectionsPerAddress = HAPServer.maximumConnections }) { server in
            try await Self.holding(HAPServer.maximumConnections, on: server) {
                // Served, it would answer 204; closed at once, the request finds no answer.
                let answer = try? await server.connect { try await $0.request("POST", "/identify") }
                #expect(
                    answer == nil, "the connection over the limit was served: \(answer.map { "\($0.status)" } ?? "")")
            }
            // The places are free again.
            let answer = try await server.connect { try await $0.request("POST", "/identify") }
            #expect(answer.status == 204)
        }
    }

    /// A connection that neither verified nor started Pair Setup is closed at the limit; a verified one and the
    /// one whose Pair Setup waits for the code, both older, are still served after it.
    @Test func aConnectionNeitherVerifiedNorPairingIsClosedAtTheLimit() async throws {
        let admin = Curve25519.Signing.PrivateKey()
        try await ServerFixture.run(unverifiedLimit: .seconds(2)) { server in
            // Unpaired: this connection starts Pair Setup and waits (the user is typing the code).
            try await server.connect { pairing in
                let m2 = try await pairing.post("/pair-setup", TLV8([(.state, [1]), (.method, [0])]))
                #expect(m2.tlv?[.error] == nil)
                let closed = try await server.connect { idle in
                    let identify = try await idle.request("POST", "/identify")
                    #expect(identify.status == 204)
                    return try await idle.closes()
                }
                #expect(closed, "the idle connection was not closed")
                // Opened before the idle one, so past the limit too: still served.
                let identify = try await pairing.request("POST", "/identify")
                #expect(identify.status == 204)
            }
            #expect(server.log.lines.contains { $0.contains("neither verified nor pairing") })
        }
        // A server of its own: the pairing connection above may not be closed on the server's side yet, and
        // Pair Setup is `busy` until it is.
        try await ServerFixture.run(unverifiedLimit: .seconds(2)) { server in
            try await server.pair("controller-A", key: admin)
            try await server.connect { verified in
                let m4 = try await verified.pairVerify(identifier: "controller-A", key: admin)
                #expect(m4[.error] == nil)
                let closed = try await server.connect { idle in try await idle.closes() }
                #expect(closed, "the idle connection was not closed")
                let accessories = try await verified.request("GET", "/accessories")
                #expect(accessories.status == 200)
            }
        }
    }
}
