import BridgeCore
import Crypto
import HomeKitClient
import Testing

@testable import HomeKit

/// /pairings, /characteristics and events in verified sessions against the real server over TCP.
@Suite struct HAPServerSessionTests {
    let admin = Curve25519.Signing.PrivateKey()
    let guest = Curve25519.Signing.PrivateKey()

    func json(_ response: HAPClient.Response) throws -> JSONValue { try JSONValue.parse(response.body) }

    /// The `characteristics` array of a response.
    func items(_ response: HAPClient.Response) throws -> [JSONValue] {
        guard case .array(let items)? = try json(response)["characteristics"] else {
            throw HAPClient.Failure("no characteristics in \(response.text)")
        }
        return items
    }

    @Test func pairingsAreManagedByAdminsOnly() async throws {
        try await ServerFixture.run { server in
            try await server.pair("controller-A", key: admin)
            try await server.connect { adminClient in
                try await adminClient.pairVerify(identifier: "controller-A", key: admin)
                let add = try await adminClient.post(
                    "/pairings",
                    TLV8([
                        (.state, [1]), (.method, [3]), (.identifier, Array("controller-B".utf8)),
                        (.publicKey, Array(guest.publicKey.rawRepresentation)), (.permissions, [0]),
                    ]))
                #expect(add.tlv == TLV8([(.state, [2])]))
                let list = try #require(
                    try await adminClient.post("/pairings", TLV8([(.state, [1]), (.method, [5])])).tlv)
                #expect(
                    list.items.filter { $0.type == TLV8.Tag.identifier.rawValue }.map(\.value)
                        == [Array("controller-A".utf8), Array("controller-B".utf8)])
                #expect(list.items.filter { $0.type == TLV8.Tag.permissions.rawValue }.map(\.value) == [[1], [0]])

                try await server.connect { guestClient in
                    let m4 = try await guestClient.pairVerify(identifier: "controller-B", key: guest)
                    #expect(m4[.error] == nil)
                    let refused = try await guestClient.post(
                        "/pairings",
                        TLV8([
                            (.state, [1]), (.method, [3]), (.identifier, Array("controller-C".utf8)),
                            (.publicKey, Array(Curve25519.Signing.PrivateKey().publicKey.rawRepresentation)),
                            (.permissions, [1]),
                        ]))
                    #expect(refused.tlv?.byte(.error) == PairingError.authentication.rawValue)
                    #expect(server.store.pairings.count == 2)

                    // The admin removes the guest: the guest's session is closed.
                    let remove = try await adminClient.post(
                        "/pairings", TLV8([(.state, [1]), (.method, [4]), (.identifier, Array("controller-B".utf8))]))
                    #expect(remove.tlv == TLV8([(.state, [2])]))
                    #expect(try await guestClient.closes())
                }
                #expect(server.store.pairings.map(\.identifier) == ["controller-A"])

                // Removing the last admin removes every pairing and closes its own session after the answer.
                let last = try await adminClient.post(
                    "/pairings", TLV8([(.state, [1]), (.method, [4]), (.identifier, Array("controller-A".utf8))]))
                #expect(last.tlv == TLV8([(.state, [2])]))
                #expect(try await adminClient.closes())
            }
            #expect(!server.store.isPaired)
        }
    }

    @Test func readsCharacteristicsWithMetadataAndMultiStatus() async throws {
        try await ServerFixture.run { server in
            try await server.session("controller-A", key: admin) { client in
                let read = try await client.request("GET", "/characteristics?id=2.10,2.11&meta=1&perms=1&type=1&ev=1")
                #expect(read.status == 200)
                let items = try self.items(read)
                #expect(items.count == 2)
                #expect(items[1]["value"] == .int(40) && items[1]["type"] == .string("8"))
                #expect(items[1]["maxValue"] == .int(100) && items[1]["format"] == .string("int"))
                #expect(items[1]["perms"] == .array([.string("pr"), .string("pw"), .string("ev")]))
                #expect(items[0]["ev"] == .bool(false) && items[0]["status"] == nil)

                let partial = try await client.request("GET", "/characteristics?id=2.10,7.7,1.2")
                #expect(partial.status == 207)
                let statuses = try self.items(partial).map { $0["status"] }
                #expect(statuses == [.int(0), .int(-70409), .int(-70405)])
                #expect(try await client.request("GET", "/characteristics?id=2.x").status == 400)
                #expect(try await client.request("GET", "/characteristics").status == 400)
            }
        }
    }

    @Test func writesCharacteristics() async throws {
        try await ServerFixture.run { server in
            try await server.session("controller-A", key: admin) { client in
                let write = try await client.request(
                    "PUT", "/characteristics",
                    body: Array(#"{"characteristics":[{"aid":2,"iid":10,"value":true}]}"#.utf8))
                #expect(write.status == 204 && write.body.isEmpty)
                #expect(server.model.value(FakeAccessoryModel.on) == .bool(true))

                let mixed = try await client.request(
                    "PUT", "/characteristics",
                    body: Array(
                        #"{"characteristics":[{"aid":2,"iid":11,"value":70},{"aid":9,"iid":9,"value":1},{"aid":1,"iid":3,"value":"x"}]}"#
                            .utf8))
                #expect(mixed.status == 207)
                let statuses = try items(mixed).map { $0["status"] }
                #expect(statuses == [.int(0), .int(-70409), .int(-70404)])
                #expect(server.model.value(FakeAccessoryModel.brightness) == .int(70))
                #expect(server.model.value(FakeAccessoryModel.name) == .string("Thuis"))

                let respond = try await client.request(
                    "PUT", "/characteristics",
                    body: Array(#"{"characteristics":[{"aid":2,"iid":11,"value":15,"r":true}]}"#.utf8))
                #expect(respond.status == 207)
                #expect(
                    try json(respond)["characteristics"]
                        == .array([
                            .object([("aid", .int(2)), ("iid", .int(11)), ("status", .int(0)), ("value", .int(15))])
                        ]))

                #expect(
                    try await client.request("PUT", "/characteristics", body: Array("{not json".utf8)).status == 400)
                let noID = try await client.request(
                    "PUT", "/characteristics", body: Array(#"{"characteristics":[{"aid":2,"value":true}]}"#.utf8))
                #expect(noID.status == 422)
                let nothing = try await client.request(
                    "PUT", "/characteristics", body: Array(#"{"characteristics":[{"aid":2,"iid":10}]}"#.utf8))
                #expect(nothing.status == 422)
                #expect(server.model.value(FakeAccessoryModel.on) == .bool(true))
            }
        }
    }

    @Test func subscribedSessionsReceiveEventsButNotTheirOwnWrites() async throws {
        try await ServerFixture.run { server in
            try await server.session("controller-A", key: admin) { client in
                let subscribe = try await client.request(
                    "PUT", "/characteristics",
                    body: Array(
                        #"{"characteristics":[{"aid":2,"iid":10,"ev":true},{"aid":2,"iid":11,"ev":true}]}"#.utf8))
                #expect(subscribe.status == 204)
                let refused = try await client.request(
                    "PUT", "/characteristics", body: Array(#"{"characteristics":[{"aid":1,"iid":3,"ev":true}]}"#.utf8))
                #expect(refused.status == 207)
                #expect(
                    try json(refused)["characteristics"]
                        == .array([.object([("aid", .int(1)), ("iid", .int(3)), ("status", .int(-70406))])]))

                // Its own write of the brightness comes back as no event; the next change made elsewhere does.
                let write = try await client.request(
                    "PUT", "/characteristics", body: Array(#"{"characteristics":[{"aid":2,"iid":11,"value":55}]}"#.utf8)
                )
                #expect(write.status == 204)
                server.model.emit(
                    .values([(FakeAccessoryModel.on, .bool(true)), (CharacteristicID(aid: 5, iid: 5), .int(1))]))
                let event = try #require(try await client.receive())
                #expect(event.version == "EVENT/1.0" && event.status == 200)
                #expect(
                    try json(event)
                        == .object([
                            (
                                "characteristics",
                                .array([.object([("aid", .int(2)), ("iid", .int(10)), ("value", .bool(true))])])
                            )
                        ]))

                // Unsubscribed: the next change of On is not sent, the one of Brightness is.
                let unsubscribe = try await client.request(
                    "PUT", "/characteristics", body: Array(#"{"characteristics":[{"aid":2,"iid":10,"ev":false}]}"#.utf8)
                )
                #expect(unsubscribe.status == 204)
                server.model.emit(.values([(FakeAccessoryModel.on, .bool(false))]))
                server.model.emit(.values([(FakeAccessoryModel.brightness, .int(3))]))
                let next = try #require(try await client.receive())
                #expect(
                    try json(next)["characteristics"]
                        == .array([.object([("aid", .int(2)), ("iid", .int(11)), ("value", .int(3))])]))
            }
        }
    }

    @Test func structureChangeRaisesTheConfigurationNumber() async throws {
        try await ServerFixture.run { server in
            var advertisements = server.advertisements.makeAsyncIterator()
            let first = try #require(await advertisements.next())
            #expect(first.first { $0.0 == "c#" }?.1 == "1")
            server.model.emit(.values([(FakeAccessoryModel.on, .bool(true))]))
            server.model.renameLampService("Kitchen")
            let next = try #require(await advertisements.next())
            #expect(next.first { $0.0 == "c#" }?.1 == "2")
            #expect(server.store.configurationNumber == 2)
        }
    }
}
