import BridgeCore
import Crypto
import HomeKitClient
import TestSupport
import Testing

@testable import HomeKit

/// The server's limits against hostile or stalled controllers: no plaintext behind the switch to encryption,
/// Pair Setup held for a bounded time, connections per address, a bounded queue per connection, TCP keepalive.
@Suite struct HAPServerLimitTests {
    let admin = Curve25519.Signing.PrivateKey()
    static let m1 = TLV8([(.state, [1]), (.method, [0])])

    /// A plaintext `POST /pairings` in the same write as a valid Pair Verify M3 (a STARTTLS injection) is not
    /// run as a request of the verified session: the connection closes and no pairing is added.
    @Test func plaintextBehindPairVerifyIsNotServed() async throws {
        try await ServerFixture.run { server in
            try await server.pair("controller-A", key: admin)
            let intruder = Curve25519.Signing.PrivateKey()
            let injected = HAPClient.encode(
                "POST", "/pairings",
                body: TLV8([
                    (.state, [1]), (.method, [3]), (.identifier, Array("intruder".utf8)),
                    (.publicKey, Array(intruder.publicKey.rawRepresentation)), (.permissions, [1]),
                ]).encoded, contentType: "application/pairing+tlv8")
            try await server.connect { client in
                let m4 = try await client.pairVerify(identifier: "controller-A", key: admin, trailing: injected)
                #expect(m4[.state] == nil, "M4 was answered: \(m4)")
                #expect(try await client.closes())
            }
            #expect(!server.store.pairings.contains { $0.identifier == "intruder" })
            #expect(try await server.watch.line(containing: "behind a request that changes its session") != nil)
        }
    }

    /// A connection that sends M1 and waits holds Pair Setup (`busy` for another) until `pairSetupLimit`: then it
    /// is closed and another controller's M1 is answered with M2. (The limit leaves a loaded machine seconds between
    /// the two M1s: at 1 s, a full test run on two busy cores saw the hold released before the second M1.)
    @Test func aStalledPairSetupIsReleasedAtTheLimit() async throws {
        try await ServerFixture.run(configure: { $0.pairSetupLimit = TestTime.scaled(.seconds(5)) }) { server in
            try await server.connect { stalled in
                let m2 = try await stalled.post("/pair-setup", Self.m1)
                #expect(m2.tlv?[.error] == nil)
                let busy = try await server.connect { try await $0.post("/pair-setup", Self.m1) }
                #expect(busy.tlv?.byte(.error) == PairingError.busy.rawValue)
                let released = try await server.watch.line(containing: "did not finish Pair Setup")
                #expect(released != nil, "the hold was not released")
                #expect(try await stalled.closes())
            }
            let other = try await server.connect { try await $0.post("/pair-setup", Self.m1) }
            #expect(other.tlv?[.error] == nil && other.tlv?[.salt]?.count == 16)
        }
    }

    /// The connection pairing when `unverifiedLimit` passes is not exempt for good: once its Pair Setup failed
    /// (a wrong proof releases the hold), it is closed at the next look.
    @Test func aFormerPairSetupOwnerIsClosedAtTheLimit() async throws {
        try await ServerFixture.run(unverifiedLimit: TestTime.scaled(.seconds(1))) { server in
            try await server.connect { pairing in
                let m2 = try await pairing.post("/pair-setup", Self.m1)
                #expect(m2.tlv?[.error] == nil)
                let looked = try await server.watch.line(containing: "is pairing: its limit is looked at again")
                try #require(looked != nil, "the pairing connection's limit was not armed again")
                let m4 = try await pairing.post("/pair-setup", TLV8([(.state, [3]), (.publicKey, [1]), (.proof, [2])]))
                #expect(m4.tlv?.byte(.error) == PairingError.authentication.rawValue)
                #expect(try await pairing.closes())
            }
            #expect(try await server.watch.line(containing: "neither verified nor pairing") != nil)
        }
    }

    /// Opens `count` connections, each answered once, then runs `body` with them.
    static func holding(
        _ count: Int, on server: ServerFixture, _ clients: [HAPClient] = [],
        _ body: ([HAPClient]) async throws -> Void
    ) async throws {
        guard clients.count < count else { return try await body(clients) }
        try await server.connect { client in
            let answer = try await client.request("POST", "/identify")
            #expect(answer.status == 204)
            try await holding(count, on: server, clients + [client], body)
        }
    }

    /// With `connectionsPerAddress` open from 127.0.0.1, one more from it is closed at once; the others are
    /// still served.
    @Test func connectionsPerAddressAreLimited() async throws {
        try await ServerFixture.run(configure: { $0.connectionsPerAddress = 3 }) { server in
            try await Self.holding(3, on: server) { clients in
                let over = try? await server.connect { try await $0.request("POST", "/identify") }
                #expect(over == nil, "the connection over the limit was served")
                for client in clients {
                    let answer = try await client.request("POST", "/identify")
                    #expect(answer.status == 204)
                }
            }
            #expect(try await server.watch.line(containing: "connections are open from 127.0.0.1") != nil)
        }
    }

    /// A verified, subscribed controller that never reads while events keep coming is disconnected once its
    /// queue holds `outgoingLimit` items: logged and counted, its memory bounded.
    @Test func aControllerThatStopsReadingIsDisconnected() async throws {
        try await ServerFixture.run(configure: { $0.outgoingLimit = 4 }) { server in
            try await server.session("controller-A", key: admin) { client in
                let subscribe = try await client.request(
                    "PUT", "/characteristics", body: Array(#"{"characteristics":[{"aid":2,"iid":10,"ev":true}]}"#.utf8))
                #expect(subscribe.status == 204)
                // 64 KiB an event, 32 MiB in all: more than the socket buffers hold.
                let large = JSONValue.string(String(repeating: "x", count: 65536))
                for _ in 0..<512 { server.model.emit(.values([(FakeAccessoryModel.on, large)])) }
                let line = try await server.watch.line(containing: "does not read its events", within: .seconds(60))
                #expect(line != nil, "the slow controller was not disconnected")
                #expect(await server.server.droppedSlowConnections == 1)
                while try await client.receive() != nil {}
                #expect(client.isClosed)
            }
        }
    }

    /// Accepted sockets have TCP keepalive with the server's values, as the kernel reports them.
    @Test func acceptedSocketsUseTCPKeepalive() async throws {
        try await ServerFixture.run { server in
            let answer = try await server.connect { try await $0.request("POST", "/identify") }
            #expect(answer.status == 204)
            let line = try #require(try await server.watch.line(containing: "keepalive"))
            #expect(line.hasSuffix("keepalive 1 idle 300 s interval 60 s count 5"), "\(line)")
        }
    }
}
