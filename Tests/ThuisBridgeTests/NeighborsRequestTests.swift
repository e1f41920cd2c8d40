import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing
import ZWaveEmulator

/// The `neighbors` request against the real bridge (real libopenzwave, real mosquitto) and the emulated house, whose
/// garden pump (node 8) is reached through the dining light (node 9): the routing table the stick gives OpenZWave,
/// hops from the controller, a neighbour update after the pump moved, and bad input refused with nothing sent.
@Suite(.endToEnd) struct NeighborsRequestTests {
    static var network: NetworkDescription { .house }

    /// Sends `payload` to the `neighbors` request and returns the response with `transaction`.
    static func ask(_ house: ZWaveHouse, _ payload: String, transaction: String, timeout: Duration = .seconds(60))
        async throws -> JSONValue
    {
        let mark = await house.mark
        try await house.watcher.publish(topic: "Thuis/bridge/\(house.bridgeName)/request/neighbors", text: payload)
        let message = try await house.watcher.waitForMessage(
            topic: "Thuis/bridge/\(house.bridgeName)/response/neighbors", from: mark, timeout: timeout
        ) { message in
            (try? JSONValue.parse(Array(message.text.utf8)))?["transaction"] == .string(transaction)
        }
        return try JSONValue.parse(Array(message.text.utf8))
    }

    /// The entry of `node` in a response's `nodes`.
    static func entry(_ response: JSONValue, _ node: Int) -> JSONValue? {
        guard case .array(let nodes)? = response["data"]?["nodes"] else { return nil }
        return nodes.first { $0["node"] == .int(node) }
    }

    static func neighbors(_ entry: JSONValue?) -> [Int] {
        guard case .array(let ids)? = entry?["neighbors"] else { return [] }
        return ids.compactMap { if case .int(let id) = $0 { id } else { nil } }
    }

    /// Waits until the inventory shows every node of the house interviewed (OpenZWave read each table on the way).
    static func waitUntilInterviewed(_ watcher: MQTTTestClient, bridge: String) async throws {
        let expected = Set(Self.network.nodes.filter { $0.kind != .joining }.map { Int($0.id) })
        _ = try await watcher.waitForMessage(
            topic: "Thuis/bridge/\(bridge)/devices", timeout: .seconds(120)
        ) { message in
            guard case .array(let devices)? = try? JSONValue.parse(Array(message.text.utf8)) else { return false }
            var complete: Set<Int> = []
            for device in devices where device["interview_stage"] == "Complete" {
                if case .int(let node)? = device["node"] { complete.insert(node) }
            }
            return expected.isSubset(of: complete)
        }
    }

    @Test func neighboursHopsAndARefreshAfterAMove() async throws {
        try await ZWaveHouse.with(name: "mesh", network: Self.network) { house in
            try await Self.waitUntilInterviewed(house.watcher, bridge: house.bridgeName)
            let all = try await Self.ask(house, #"{"transaction":"all"}"#, transaction: "all")
            #expect(all["status"] == "ok", "\(all.serialized)")
            #expect(all["data"]?["controller"] == .int(1))
            for node in Self.network.nodes where node.kind != .joining {
                let entry = Self.entry(all, Int(node.id))
                #expect(
                    Self.neighbors(entry) == (Self.network.neighborTable[node.id] ?? []).sorted().map(Int.init),
                    "node \(node.id): \(entry?.serialized ?? "missing")")
                #expect(entry?["read_at"] != .null && entry?["read_at"] != nil, "\(entry?.serialized ?? "")")
            }
            #expect(Self.entry(all, 8)?["hops"] == .int(2))
            #expect(Self.entry(all, 9)?["hops"] == .int(1))
            #expect(Self.entry(all, 2)?["hops"] == .int(1))

            // The pump moves next to the bedroom light: the stick's table knows only after the pump's update.
            #expect(house.stick.execute("move 8 1 2") == "ok")
            let stale = try await Self.ask(house, #"{"transaction":"stale","node":8}"#, transaction: "stale")
            #expect(Self.neighbors(Self.entry(stale, 8)) == [9])
            let updates = house.stick.receivedHostFrames.filter { $0.frame.function == 0x48 }.count
            let fresh = try await Self.ask(
                house, #"{"transaction":"fresh","node":8,"refresh":true}"#, transaction: "fresh")
            #expect(fresh["status"] == "ok", "\(fresh.serialized)")
            #expect(Self.neighbors(Self.entry(fresh, 8)) == [1, 2])
            #expect(Self.entry(fresh, 8)?["hops"] == .int(1))
            #expect(
                house.stick.receivedHostFrames.filter { $0.frame.function == 0x48 }.count == updates + 1,
                "one REQUEST_NODE_NEIGHBOR_UPDATE on the wire")
            // OpenZWave read only the pump's table again: the dining light's still names the pump, until its own
            // update.
            let after = try await Self.ask(house, #"{"transaction":"after"}"#, transaction: "after")
            #expect(Self.neighbors(Self.entry(after, 9)) == [1, 4, 5, 8])
            let light = try await Self.ask(
                house, #"{"transaction":"light","node":9,"refresh":true}"#, transaction: "light")
            #expect(Self.neighbors(Self.entry(light, 9)) == [1, 4, 5], "\(light.serialized)")
        }
    }

    @Test func badInputIsRefusedWithNothingSent() async throws {
        try await ZWaveHouse.with(name: "meshbad", network: Self.network) { house in
            try await Self.waitUntilInterviewed(house.watcher, bridge: house.bridgeName)
            let updates = house.stick.receivedHostFrames.filter { $0.frame.function == 0x48 }.count
            let cases: [(String, String, String)] = [
                (#"{"transaction":"a","node":40,"refresh":true}"#, "a", "node 40 is not in the Z-Wave network"),
                (#"{"transaction":"b","node":233}"#, "b", "within 1...232"),
                (#"{"transaction":"c","refresh":"yes"}"#, "c", "\"refresh\" must be true or false"),
                (#"{"transaction":"d","node":8,"hops":1}"#, "d", "unknown argument \"hops\""),
            ]
            for (payload, transaction, reason) in cases {
                let response = try await Self.ask(house, payload, transaction: transaction)
                #expect(response["status"] == "error")
                let error = response["error"].map { if case .string(let text) = $0 { text } else { "" } } ?? ""
                #expect(error.contains(reason), "\(payload): \(error)")
            }
            let mark = await house.mark
            try await house.watcher.publish(
                topic: "Thuis/bridge/\(house.bridgeName)/request/neighbors", text: "refresh all please")
            let garbage = try await house.watcher.waitForJSON(
                topic: "Thuis/bridge/\(house.bridgeName)/response/neighbors", from: mark)
            #expect(garbage.string("status") == "error", "\(garbage)")
            #expect(house.stick.receivedHostFrames.filter { $0.frame.function == 0x48 }.count == updates)
        }
    }
}
