import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing
import ZWaveEmulator

/// `network_stats` and `health_check` end to end: the real bridge, real libopenzwave on the emulated stick, real
/// mosquitto. Health checks ping with NoOperation frames, which the emulator acknowledges or (a lossy link)
/// reports as not acknowledged.
@Suite(.endToEnd) struct NetworkHealthTests {
    /// Sends `request/<verb>` with `payload` and returns the response's text.
    static func request(_ house: InclusionHouse, _ verb: String, _ payload: String) async throws -> String {
        let base = "Thuis/bridge/\(house.bridgeName)"
        let mark = await house.mark
        try await house.watcher.publish(topic: "\(base)/request/\(verb)", text: payload)
        return try await house.watcher.waitForMessage(
            topic: "\(base)/response/\(verb)", from: mark, timeout: .seconds(120)
        )
        .text
    }

    /// The NoOperation frames (SEND_DATA with command `00 00`) the stick received so far.
    static func noOperations(_ stick: ZWaveStickEmulator) -> Int {
        stick.receivedHostFrames.filter { $0.command == [0x00, 0x00] }.count
    }

    static func object(_ text: String) throws -> JSONValue {
        try JSONValue.parse(Array(text.utf8))
    }

    /// Whether a response's text is a JSON error response whose `error` contains `reason`.
    static func isError(_ text: String, containing reason: String) -> Bool {
        guard let response = try? object(text), response["status"] == "error",
            case .string(let error)? = response["error"]
        else { return false }
        return error.contains(reason)
    }

    /// The first entry of a response's `data.nodes`.
    static func firstNode(_ response: JSONValue) -> JSONValue? {
        guard case .array(let nodes)? = response["data"]?["nodes"] else { return nil }
        return nodes.first
    }

    @Test func networkStatsAnswersEveryNodeWithItsFieldsAndTheDriversCounters() async throws {
        try await InclusionHouse.with(name: "netstats", joinAfter: nil) { house in
            let text = try await Self.request(house, "network_stats", #"{"transaction":"s1"}"#)
            let response = try Self.object(text)
            #expect(response["status"] == .string("ok"), "\(text)")
            let data = try #require(response["data"])
            #expect(data["alive"] == .int(1), "\(text)")
            #expect(data["dead"] == .int(0))
            #expect(data["asleep"] == .int(0))
            guard case .array(let nodes)? = data["nodes"] else {
                Issue.record("no nodes in \(text)")
                return
            }
            #expect(nodes.count == 1, "the controller is not listed: \(text)")
            let node = try #require(nodes.first)
            #expect(node["node"] == .int(2))
            #expect(node["status"] == .string("alive"))
            guard case .int(let sent)? = node["sent"] else {
                Issue.record("no sent count: \(text)")
                return
            }
            #expect(sent > 0, "the interview sent frames to node 2")
            for key in [
                "sent_failed", "retries", "received", "received_duplicates", "received_unsolicited",
                "average_request_rtt_ms", "average_response_rtt_ms", "quality",
            ] {
                guard case .int? = node[key] else {
                    Issue.record("\(key) is not a number in \(text)")
                    continue
                }
            }
            // The emulated stick sends no transmit status report: the route fields are not reported, never 0.
            for key in ["hops", "rssi", "route", "last_failed_link"] {
                #expect(node[key] == .null, "\(key) in \(text)")
            }
            let driver = try #require(data["driver"])
            for key in ["nak", "can", "no_ack", "bad_checksum", "read_aborts", "dropped", "retries"] {
                guard case .int? = driver[key] else {
                    Issue.record("driver counter \(key) missing in \(text)")
                    continue
                }
            }
            guard case .int(let read)? = driver["read"] else {
                Issue.record("no read count in \(text)")
                return
            }
            #expect(read > 0)
        }
    }

    /// A stick that supports the extended transmit status report (a 500/700 series) reports each frame's route;
    /// OpenZWave fills the node's statistics from it and `network_stats` shows them: node 3 hears only node 2, so
    /// its frames take one hop through node 2.
    @Test func networkStatsReportsTheRouteWhenTheStickDoes() async throws {
        var options = InclusionHouse.Options()
        options.txStatusReport = true
        options.extraNodes = [NodeDescription(id: 3, kind: .binarySwitch, name: "far plug", neighbors: [2])]
        try await InclusionHouse.with(name: "netstats-route", joinAfter: nil, options: options) { house in
            _ = try await house.watcher.waitForMessage(topic: "Thuis/device/unassigned/node3", timeout: .seconds(60))
            let text = try await Self.request(house, "network_stats", #"{"transaction":"r1"}"#)
            let response = try Self.object(text)
            guard case .array(let nodes)? = response["data"]?["nodes"],
                let direct = nodes.first(where: { $0["node"] == .int(2) }),
                let routed = nodes.first(where: { $0["node"] == .int(3) })
            else {
                Issue.record("nodes 2 and 3 not in \(text)")
                return
            }
            #expect(direct["hops"] == .int(0), "\(text)")
            #expect(direct["route"] == .array([]), "\(text)")
            #expect(routed["hops"] == .int(1), "\(text)")
            #expect(routed["route"] == .array([.int(2)]), "\(text)")
            #expect(routed["last_failed_link"] == .null, "every frame was acknowledged: \(text)")
            guard case .array(let rssi)? = routed["rssi"] else {
                Issue.record("no rssi in \(text)")
                return
            }
            let levels = rssi.compactMap {
                if case .string(let text) = $0 { text.trimmingCharacters(in: .whitespaces) } else { nil }
            }
            #expect(Array(levels.prefix(2)) == ["-52", "-56"], "the stick's and node 2's hop: \(text)")
        }
    }

    @Test func healthCheckRatesAHealthyLinkTenAndALossyOneLower() async throws {
        try await InclusionHouse.with(name: "health", joinAfter: nil) { house in
            let stick = house.stick
            let mark = await house.mark
            let probes = Self.noOperations(stick)  // the interview's own NoOperation probe
            let healthy = try Self.object(
                try await Self.request(house, "health_check", #"{"transaction":"h1","node":2}"#))
            #expect(healthy["status"] == .string("ok"), "\(healthy.serialized)")
            let result = try #require(Self.firstNode(healthy))
            #expect(result["node"] == .int(2))
            #expect(result["status"] == .string("tested"))
            #expect(result["sent"] == .int(10), "\(result.serialized)")
            #expect(result["acknowledged"] == .int(10), "\(result.serialized)")
            #expect(result["failed"] == .int(0))
            #expect(result["rating"] == .int(10), "\(result.serialized)")
            #expect(result["rtt_min_ms"] != .null && result["rtt_max_ms"] != .null && result["rtt_mean_ms"] != .null)
            #expect(Self.noOperations(stick) - probes == 10, "ten NoOperation frames went to the stick")
            // Progress: a started event, one per frame, the node's result and the end.
            try await house.waitForEvent("health_check_started", from: mark)
            try await house.waitForEvent("health_check_frame", from: mark) {
                $0.int("node") == 2 && $0.int("frame") == 10
            }
            try await house.waitForEvent("health_check_node", from: mark) { $0.int("node") == 2 }
            try await house.waitForEvent("health_check_completed", from: mark)

            #expect(stick.execute("loss 2 50 7") == "ok")
            let lossy = try Self.object(
                try await Self.request(house, "health_check", #"{"transaction":"h2","node":2,"frames":20}"#))
            #expect(lossy["status"] == .string("ok"), "\(lossy.serialized)")
            let bad = try #require(Self.firstNode(lossy))
            #expect(bad["sent"] == .int(20), "\(bad.serialized)")
            guard case .int(let failed)? = bad["failed"], case .int(let rating)? = bad["rating"] else {
                Issue.record("no failed count or rating: \(bad.serialized)")
                return
            }
            #expect(failed > 0, "\(bad.serialized)")
            #expect(rating < 10, "\(bad.serialized)")
        }
    }

    /// A frame that waits in OpenZWave's send queue behind another node's traffic is the queue's delay, not the
    /// node's failure: the clean node rates 10, and the result says how long its frames waited (found on a mesh
    /// where a lossy neighbour's retries held a clean node's frame 10 s in the queue: it counted as failed).
    @Test func aCleanNodeBehindAnotherNodesStuckTrafficRatesTen() async throws {
        let options = InclusionHouse.Options(extraNodes: [NodeDescription(id: 3, kind: .binarySwitch, name: "plug")])
        try await InclusionHouse.with(name: "healthqueue", joinAfter: nil, options: options) { house in
            let stick = house.stick
            _ = try await house.watcher.waitForMessage(topic: "Thuis/device/unassigned/node3", timeout: .seconds(60))
            // A parameter set on the dimmer (a Configuration Set on OpenZWave's send queue) whose transaction the
            // radio holds: OpenZWave sends nothing else until it gives up on it, 10 s later.
            async let held = stick.holdRadio(startingWith: { $0.destinationNode == 2 }, timeout: .seconds(30))
            try await house.watcher.publish(
                topic: "Thuis/bridge/\(house.bridgeName)/request/set_config",
                text: #"{"transaction":"c1","node":2,"parameter":28,"value":1}"#)
            try #require(await held != nil, "no frame to the dimmer")
            let response = Task {
                try Self.object(
                    try await Self.request(house, "health_check", #"{"transaction":"q1","node":3,"frames":3}"#))
            }
            // The first NoOperation to node 3 leaves only once OpenZWave gave up on what it queued before it.
            let noOperation = await stick.waitForHostFrame(timeout: .seconds(180)) {
                $0.destinationNode == 3 && $0.command == [0x00, 0x00]
            }
            stick.releaseRadio()
            try #require(noOperation != nil, "no NoOperation frame reached node 3")
            let checked = try await response.value
            #expect(checked["status"] == .string("ok"), "\(checked.serialized)")
            let result = try #require(Self.firstNode(checked))
            #expect(result["status"] == .string("tested"), "\(result.serialized)")
            #expect(result["acknowledged"] == .int(3), "\(result.serialized)")
            #expect(result["failed"] == .int(0), "\(result.serialized)")
            #expect(result["rating"] == .int(10), "\(result.serialized)")
            guard case .int(let waited)? = result["queued_max_ms"] else {
                Issue.record("no queued_max_ms: \(result.serialized)")
                return
            }
            // About 10 s: OpenZWave's wait for the held transaction, which started before the check's first frame.
            #expect(waited >= 5000, "the first frame's wait in the queue is not reported: \(result.serialized)")
        }
    }

    @Test func aSilentMainsNodeThatStopsAnsweringIsMarkedDead() async throws {
        var options = InclusionHouse.Options()
        options.pingSilentAfter = 2
        try await InclusionHouse.with(name: "silent", joinAfter: nil, options: options) { house in
            // While node 2 answers, its silence pings are acknowledged and it stays online.
            let probes = Self.noOperations(house.stick)
            try await MQTTTestClient.poll(timeout: .seconds(60), "a silence ping to node 2") {
                Self.noOperations(house.stick) > probes
            }
            let events = await house.watcher.received(on: house.eventTopic)
            #expect(!events.contains { JSONMessage($0)?.type == "node_dead" })
            let mark = await house.mark
            let pings = Self.noOperations(house.stick)
            house.stick.setDead(node: 2, true)
            let event = try await house.waitForEvent("node_dead", from: mark, timeout: .seconds(60))
            #expect(event.int("node") == 2, "\(event)")
            try await house.watcher.waitForMessage(
                topic: "Thuis/device/bedroom/light/availability", text: "offline", from: mark)
            #expect(Self.noOperations(house.stick) > pings, "the dead node was found by a NoOperation frame")
        }
    }

    @Test func badHealthCheckRequestsGetSpecificErrorsAndSendNothing() async throws {
        try await InclusionHouse.with(name: "healthbad", joinAfter: nil) { house in
            let cases: [(payload: String, error: String)] = [
                (#"{"node":77}"#, "node 77 is not in the Z-Wave network"),
                (#"{"node":1}"#, "is the controller"),
                (#"{"node":2,"frames":0}"#, #"argument "frames" must be within 1...100, not 0"#),
                (#"{"node":2,"frames":101}"#, #"argument "frames" must be within 1...100, not 101"#),
                (#"{"node":2,"frames":"many"}"#, #"argument "frames" must be an integer"#),
                (#"{"node":2,"frames":2.5}"#, #"argument "frames" must be an integer"#),
                (#"{"node":2,"speed":1}"#, #"unknown argument "speed""#),
                ("not json", "malformed JSON"),
                ("", "needs a JSON object"),
            ]
            let probes = Self.noOperations(house.stick)
            for item in cases {
                let text = try await Self.request(house, "health_check", item.payload)
                #expect(Self.isError(text, containing: item.error), "\(item.payload): \(text)")
            }
            // During inclusion: refused with the reason.
            let base = "Thuis/bridge/\(house.bridgeName)"
            let mark = await house.mark
            try await house.watcher.publish(topic: "\(base)/request/include", text: #"{"timeout_s":30}"#)
            try await house.waitForEvent("inclusion_waiting", from: mark)
            let busy = try await Self.request(house, "health_check", #"{"node":2}"#)
            #expect(Self.isError(busy, containing: "busy: inclusion is running"), "\(busy)")
            _ = try await Self.request(house, "cancel", "{}")
            #expect(Self.noOperations(house.stick) == probes, "a refused health check sent NoOperation frames")
        }
    }

    /// `thuis-bridge health 2 --frames 3`: the live progress of each frame, then the table with the node's rating.
    @Test func theCommandLineShowsTheCheckLiveAndItsResult() async throws {
        try await InclusionHouse.with(name: "healthcli", joinAfter: nil) { house in
            let probes = Self.noOperations(house.stick)
            let cli = try house.cli(["health", "2", "--frames", "3"])
            #expect(await cli.waitForExit(timeout: .seconds(60)) == .exited(0), "\(cli.outputText)")
            let output = cli.outputText
            for frame in 1...3 {
                #expect(output.contains("node 2: frame \(frame)/3 acknowledged"), "\(output)")
            }
            // node, status, sent, acknowledged, failed, round trips, rating
            let row = output.split(separator: "\n").first { $0.hasPrefix("2 ") }?.split(separator: " ").map(String.init)
            let fields = try #require(row, "no line for node 2: \(output)")
            try #require(fields.count == 7, "\(output)")
            #expect(
                [fields[1], fields[2], fields[3], fields[4], fields[6]] == ["tested", "3", "3", "0", "10/10"],
                "\(output)")
            #expect(Self.noOperations(house.stick) - probes == 3, "three NoOperation frames went to the stick")
        }
    }

    /// A second health check while one runs is refused with the reason, and sends nothing of its own.
    @Test func aSecondHealthCheckWhileOneRunsIsRefused() async throws {
        try await InclusionHouse.with(name: "healthtwice", joinAfter: nil) { house in
            let base = "Thuis/bridge/\(house.bridgeName)"
            house.stick.setRadioLatency(.milliseconds(50))  // 100 frames: the first check runs for seconds
            let mark = await house.mark
            try await house.watcher.publish(
                topic: "\(base)/request/health_check", text: #"{"transaction":"first","node":2,"frames":100}"#)
            try await house.waitForEvent("health_check_frame", from: mark) {
                $0.int("node") == 2 && $0.int("frame") == 1
            }
            let second = try await Self.request(house, "health_check", #"{"transaction":"second","node":2}"#)
            #expect(Self.isError(second, containing: "busy: another health check is running"), "\(second)")
            let first = try await house.watcher.waitForMessage(
                topic: "\(base)/response/health_check", from: mark, timeout: .seconds(120)
            ) { JSONMessage($0)?.string("transaction") == "first" }
            let result = try #require(Self.firstNode(try Self.object(first.text)))
            #expect(result["sent"] == .int(100), "the first check ran all its frames: \(first.text)")
        }
    }
}
