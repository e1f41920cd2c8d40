import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing
import ZWaveEmulator

/// Associations end to end: the real bridge process with real libopenzwave against the emulated FGD212 (node 2),
/// a PowerNode 6 (node 3) and a binary switch (node 4), through a real mosquitto and the CLI.
@Suite(.endToEnd) struct AssociationTests {
    static let options = InclusionHouse.Options(
        extraNodes: [
            NodeDescription(id: 3, kind: .powernode6, name: "sockets", switches: Array(repeating: false, count: 6)),
            NodeDescription(id: 4, kind: .binarySwitch, name: "plug"),
        ])

    /// Sends `payload` to request `verb` and returns the response with that transaction.
    static func ask(_ house: InclusionHouse, _ verb: String, _ payload: String) async throws -> JSONValue {
        let transaction = "\(verb)-\(UUID().uuidString.prefix(8))"
        let from = await house.mark
        var text = payload
        if text.hasPrefix("{") { text = #"{"transaction":"\#(transaction)","# + text.dropFirst() }
        // A payload that is not JSON has no transaction to echo: its response is the next one.
        let isJSON = (try? JSONValue.parse(Array(payload.utf8))) != nil
        try await house.watcher.publish(topic: "Thuis/bridge/\(house.bridgeName)/request/\(verb)", text: text)
        let message = try await house.watcher.waitForMessage(
            topic: "Thuis/bridge/\(house.bridgeName)/response/\(verb)", from: from, timeout: .seconds(30)
        ) { JSONMessage($0)?.string("transaction") == transaction || !isJSON }
        return try JSONValue.parse(Array(message.text.utf8))
    }

    /// The whole `ok` response to `response`'s transaction with `data`, as the bridge writes it (the golden of
    /// `ResponseGoldenTests`, end to end).
    static func okResponse(_ response: JSONValue, data: String) -> String {
        #"{"transaction":"# + (response["transaction"] ?? .null).serialized + #","status":"ok","data":"# + data + "}"
    }

    static func members(_ group: JSONValue?) -> [String] {
        guard case .array(let list)? = group?["members"] else { return [] }
        return list.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    /// Waits until node 4 (the target of the tests) is interviewed: its state is published.
    static func waitForTargets(_ house: InclusionHouse) async throws {
        _ = try await house.watcher.waitForMessage(topic: "Thuis/device/unassigned/node4", timeout: .seconds(60))
    }

    @Test func listAssociateAndDissociateReachTheNode() async throws {
        try await InclusionHouse.with(name: "associations", joinAfter: nil, options: Self.options) { house in
            try await Self.waitForTargets(house)
            // The FGD212's groups, labels and maximums as OpenZWave's device database gives them; the Lifeline
            // holds the controller's endpoint 1 (OpenZWave put it there during the interview, by Multi Channel
            // Association).
            let listed = try await Self.ask(house, "associations", #"{"node":2}"#)
            #expect(listed["status"] == .string("ok"), "\(listed)")
            guard case .array(let groups)? = listed["data"]?["groups"] else {
                Issue.record("no groups: \(listed)")
                return
            }
            #expect(
                groups.map { $0["label"] ?? .null }
                    == ["Lifeline", "On/Off(S1)", "Dimmer(S1)", "On/Off(S2)", "Dimmer(S2)"].map { .string($0) })
            #expect(groups.map { $0["max"] ?? .null } == [1, 8, 8, 8, 8].map { .int($0) })
            #expect(Self.members(groups.first) == ["1:1"], "\(listed)")
            #expect(house.stick.associations(node: 2, group: 1)?.endpoints == [[1, 1]])
            #expect(
                listed.serialized
                    == Self.okResponse(
                        listed,
                        data: #"{"node":2,"controller":1,"groups":[{"group":1,"label":"Lifeline","max":1,"#
                            + #""members":["1:1"]},{"group":2,"label":"On/Off(S1)","max":8,"members":[]},"#
                            + #"{"group":3,"label":"Dimmer(S1)","max":8,"members":[]},{"group":4,"#
                            + #""label":"On/Off(S2)","max":8,"members":[]},{"group":5,"label":"Dimmer(S2)","max":8,"#
                            + #""members":[]}]}"#))

            // associate through the CLI: the node holds the member, the CLI prints the group read back.
            let associate = try house.cli(["associate", "2", "2", "4"])
            #expect(await associate.waitForExit(timeout: .seconds(30)) == .exited(0), "\(associate.outputText)")
            #expect(house.stick.associations(node: 2, group: 2)?.nodes == [4])
            #expect(associate.outputText.contains("On/Off(S1)"), "\(associate.outputText)")

            // An endpoint as target (Multi Channel Association).
            let endpoint = try await Self.ask(house, "associate", #"{"node":2,"group":3,"target":"3:1"}"#)
            #expect(Self.members(endpoint["data"]) == ["3:1"], "\(endpoint)")
            #expect(
                endpoint.serialized
                    == Self.okResponse(
                        endpoint, data: #"{"node":2,"group":3,"label":"Dimmer(S1)","max":8,"members":["3:1"]}"#))
            #expect(house.stick.associations(node: 2, group: 3)?.endpoints == [[3, 1]])

            // The CLI's table shows every group and its members.
            let table = try house.cli(["associations", "2"])
            #expect(await table.waitForExit(timeout: .seconds(30)) == .exited(0), "\(table.outputText)")
            let lines = table.output.filter { $0.stream == .stdout }.map(\.text)
            #expect(lines.first?.hasPrefix("GROUP") == true, "\(table.outputText)")
            #expect(lines.contains { $0.hasPrefix("1 ") && $0.contains("Lifeline") && $0.hasSuffix(" 1:1") })
            #expect(lines.contains { $0.hasPrefix("2 ") && $0.contains("On/Off(S1)") && $0.hasSuffix(" 4") })
            #expect(lines.contains { $0.hasPrefix("3 ") && $0.hasSuffix(" 3:1") }, "\(lines)")

            // dissociate removes it from the node.
            let removed = try await Self.ask(house, "dissociate", #"{"node":2,"group":2,"target":4}"#)
            #expect(removed["status"] == .string("ok"), "\(removed)")
            #expect(Self.members(removed["data"]).isEmpty)
            #expect(
                removed.serialized
                    == Self.okResponse(
                        removed, data: #"{"node":2,"group":2,"label":"On/Off(S1)","max":8,"members":[]}"#))
            #expect(house.stick.associations(node: 2, group: 2)?.nodes == [])
        }
    }

    /// Each bad request gets its specific error, and no Association Set or Remove reaches the stick.
    @Test func badRequestsAreRefusedAndNothingIsSent() async throws {
        try await InclusionHouse.with(name: "associations-bad", joinAfter: nil, options: Self.options) { house in
            try await Self.waitForTargets(house)
            // The PowerNode's last socket is published: its endpoints are known.
            _ = try await house.watcher.waitForMessage(
                topic: "Thuis/device/unassigned/node3_6", timeout: .seconds(60))
            let since = house.stick.hostFrameCount
            let cases: [(verb: String, payload: String, reason: String)] = [
                ("associations", #"{"node":77}"#, "node 77 is not in the Z-Wave network"),
                ("associate", #"{"node":77,"group":2,"target":4}"#, "node 77 is not in the Z-Wave network"),
                (
                    "associate", #"{"node":2,"group":9,"target":4}"#,
                    "node 2 has no association group 9; its groups are 1...5"
                ),
                ("associate", #"{"node":2,"group":2,"target":2}"#, "node 2 cannot be associated with itself"),
                ("associate", #"{"node":2,"group":2,"target":77}"#, "target 77: node 77 is not in the Z-Wave network"),
                ("associate", #"{"node":2,"group":1,"target":4}"#, "group 1 (Lifeline) of node 2 is full"),
                ("associate", #"{"node":2,"group":2,"target":"4:x"}"#, "is not a node or node:endpoint"),
                (
                    "associate", #"{"node":2,"group":2,"target":"4:1"}"#,
                    "target 4:1: node 4 is not a Multi Channel node (it has no endpoints)"
                ),
                ("associate", #"{"node":2,"group":2,"target":"3:9"}"#, "target 3:9: node 3 has no endpoint 9"),
                (
                    "dissociate", #"{"node":2,"group":2,"target":"4:2"}"#,
                    "target 4:2: node 4 is not a Multi Channel node"
                ),
                ("associate", #"{"node":2,"group":2,"target":"#, "malformed JSON"),
                ("dissociate", #"{"node":2,"group":1,"target":1}"#, "the Lifeline (group 1 → the controller"),
                ("dissociate", #"{"node":2,"group":4,"target":4}"#, "4 is not a member of group 4"),
            ]
            for item in cases {
                let response = try await Self.ask(house, item.verb, item.payload)
                #expect(response["status"] == .string("error"), "\(item.payload): \(response)")
                guard case .string(let error)? = response["error"] else { continue }
                #expect(error.contains(item.reason), "\(item.payload): \(error)")
            }
            let changes = house.stick.receivedHostFrames.filter { event in
                event.index >= since
                    && [0x85, 0x8E].contains { event.carries($0, 0x01) || event.carries($0, 0x04) }
            }
            #expect(changes.isEmpty, "sent: \(changes)")
            #expect(house.stick.associations(node: 2, group: 1)?.endpoints == [[1, 1]])
        }
    }

    /// devices.toml's associations are added after the interview and reported; a group the node does not have and an
    /// endpoint of a node without endpoints are reported as failed with the reason, the others are still added.
    @Test func desiredAssociationsAreAppliedAfterTheInterview() async throws {
        var options = Self.options
        options.associations = #"{ 2 = [4], 3 = ["3:1"], 4 = ["4:1"], 9 = [4] }"#
        try await InclusionHouse.with(name: "associations-toml", joinAfter: nil, options: options) { house in
            let event = try await house.waitForEvent("associations_failed", timeout: .seconds(60))
            let json = event.json
            #expect(
                json["added"]
                    == .array([
                        .object([("group", 2), ("target", "4")]), .object([("group", 3), ("target", "3:1")]),
                    ]), "\(event)")
            guard case .array(let failed)? = json["failed"], failed.count == 2,
                case .string(let endpoint)? = failed[0]["reason"], case .string(let group)? = failed[1]["reason"]
            else {
                Issue.record("not two failures: \(event)")
                return
            }
            #expect(failed.map { $0["group"] ?? .null } == [.int(4), .int(9)], "\(event)")
            #expect(endpoint.contains("node 4 is not a Multi Channel node"), "\(event)")
            #expect(group.contains("node 2 has no association group 9"), "\(event)")
            #expect(house.stick.associations(node: 2, group: 4)?.endpoints == [])
            #expect(house.stick.associations(node: 2, group: 2)?.nodes == [4])
            #expect(house.stick.associations(node: 2, group: 3)?.endpoints == [[3, 1]])
            #expect(house.stick.associations(node: 2, group: 1)?.endpoints == [[1, 1]])
        }
    }
}
