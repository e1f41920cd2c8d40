import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing
import ZWaveEmulator

/// `thuis-bridge include`/`exclude` as real processes against the real bridge process, the
/// emulated stick and a real broker.
@Suite(.endToEnd) struct InclusionCLITests {
    @Test func includeAddsTheJoiningNodeAndAppliesTheCommandHeldDuringInclusion() async throws {
        try await InclusionHouse.with(name: "incl-add", joinAfter: 4) { house in
            let from = await house.mark
            let include = try house.cli(["include", "--timeout", "30"])
            defer { include.kill() }
            try await house.waitForEvent("inclusion_waiting", from: from, timeout: .seconds(15))
            #expect(house.stick.isInclusionActive)
            // A dimmer command while the library's traffic is frozen: kept, applied after inclusion ends.
            try await house.watcher.publish(topic: "Thuis/device/bedroom/light/set", text: "40")
            while house.stick.isInclusionActive {
                #expect(house.stick.level(node: 2) == 0, "applied while the controller was in inclusion mode")
                try await Task.sleep(for: .milliseconds(20))
            }
            let exit = await include.waitForExit(timeout: .seconds(90))
            let output = include.outputText
            #expect(exit == .exited(0), "\(output)")
            #expect(output.contains("Everspring"))
            #expect(output.contains("[[zwave.device]]\nnode = 10\n"))
            #expect(output.contains("interviewing node 10"))
            try await MQTTTestClient.poll(timeout: .seconds(20), "the held level 40 applied") {
                house.stick.level(node: 2) == 40
            }
            try await house.watcher.waitForMessage(
                topic: "Thuis/device/unassigned/node10/availability", text: "online", from: from, timeout: .seconds(10))
            _ = try await house.watcher.waitForMessage(
                topic: "Thuis/bridge/\(house.bridgeName)/devices", from: from, timeout: .seconds(10)
            ) { $0.retained || Inventory($0)?.nodes.contains(10) == true }
            let events = await house.watcher.received(on: house.eventTopic).compactMap { JSONMessage($0)?.type }
            for type in [
                "inclusion_node_found", "inclusion_protocol_done", "node_added", "interview_progress",
                "interview_completed",
            ] {
                #expect(events.contains(type), "no \(type) event in \(events)")
            }
            // The response follows the inclusion's events and the new node's device on the wire.
            let seen = Array(await house.watcher.received.dropFirst(from))
            let answered = seen.firstIndex { $0.topic == "Thuis/bridge/\(house.bridgeName)/response/include" }
            let completed = seen.firstIndex {
                $0.topic == house.eventTopic && JSONMessage($0)?.type == "interview_completed"
            }
            let device = seen.firstIndex { $0.topic == "Thuis/device/unassigned/node10/availability" }
            #expect(answered != nil && completed.map { $0 < answered ?? 0 } == true, "interview_completed after it")
            #expect(device.map { $0 < answered ?? 0 } == true, "the new node's device came after the response")
            let devices = try house.cli(["devices"])
            #expect(await devices.waitForExit(timeout: .seconds(15)) == .exited(0))
            #expect(devices.outputText.contains("unassigned/node10"), "\(devices.outputText)")
        }
    }

    @Test func includeWithNothingJoiningTimesOutAndLeavesInclusionMode() async throws {
        try await InclusionHouse.with(name: "incl-timeout", joinAfter: nil) { house in
            let from = await house.mark
            let started = ContinuousClock.now
            let include = try house.cli(["include", "--timeout", "5"])
            defer { include.kill() }
            try await house.waitForEvent("inclusion_waiting", from: from, timeout: .seconds(15))
            #expect(house.stick.isInclusionActive)
            let exit = await include.waitForExit(timeout: .seconds(30))
            #expect(exit == .exited(1), "\(include.outputText)")
            #expect(ContinuousClock.now - started >= .seconds(5))
            #expect(include.outputText.contains("no device joined within 5 s"), "\(include.outputText)")
            #expect(!house.stick.isInclusionActive, "the controller is still in inclusion mode")
        }
    }

    /// On the wire: network requests that are empty (`mosquitto_pub -r -n` clearing a retained
    /// request reaches subscribers as an empty message), not JSON, not an object, with an unknown key, or
    /// retained, each get an error response, and the stick never sees an add or remove command; a valid request
    /// right after does reach it.
    @Test func invalidNetworkRequestsChangeNothingOnTheWire() async throws {
        try await InclusionHouse.with(name: "incl-invalid", joinAfter: nil) { house in
            let base = "Thuis/bridge/\(house.bridgeName)"
            let controllerFunctions: Set<UInt8> = [
                SerialFunction.addNodeToNetwork, SerialFunction.removeNodeFromNetwork,
            ]
            func controllerFrames() -> [HostFrameEvent] {
                house.stick.receivedHostFrames.filter { controllerFunctions.contains($0.frame.function) }
            }
            #expect(controllerFrames().isEmpty)
            let cases: [(command: String, payload: String, retained: Bool, reason: String)] = [
                ("include", "", false, "empty request"),
                ("exclude", "", false, "empty request"),
                ("include", "not json", false, "malformed JSON"),
                ("include", "[1]", false, "must be a JSON object"),
                ("include", #"{"timeout":30}"#, false, #"unknown argument "timeout""#),
                ("exclude", #"{"transaction":"x","node":2}"#, false, #"unknown argument "node""#),
                ("include", #"{"transaction":"r"}"#, true, "retained request ignored"),
            ]
            for (index, item) in cases.enumerated() {
                let mark = await house.mark
                try await house.watcher.publish(
                    topic: "\(base)/request/\(item.command)", text: item.payload, retain: item.retained)
                let response = try JSONValue.parse(
                    try await house.watcher.waitForMessage(topic: "\(base)/response/\(item.command)", from: mark)
                        .payload)
                #expect(response["status"] == "error", "case \(index): \(response.serialized)")
                guard case .string(let reason)? = response["error"] else {
                    Issue.record("case \(index): no reason in \(response.serialized)")
                    continue
                }
                #expect(reason.contains(item.reason), "case \(index): \(reason)")
                if item.retained {
                    try await house.watcher.publish(topic: "\(base)/request/\(item.command)", text: "", retain: true)
                }
            }
            #expect(controllerFrames().isEmpty, "the stick got \(controllerFrames())")
            #expect(!house.stick.isInclusionActive)
            // The same path with a valid request reaches the stick (so the check above could see it).
            let from = await house.mark
            try await house.watcher.publish(
                topic: "\(base)/request/include", text: #"{"transaction":"ok","timeout_s":30}"#)
            try await house.waitForEvent("inclusion_waiting", from: from, timeout: .seconds(15))
            #expect(controllerFrames().contains { $0.frame.function == SerialFunction.addNodeToNetwork })
            try await house.watcher.publish(topic: "\(base)/request/cancel", text: #"{"transaction":"c"}"#)
            _ = try await house.watcher.waitForMessage(topic: "\(base)/response/cancel", from: from)
        }
    }

    @Test func interruptCancelsInclusionOnTheController() async throws {
        try await InclusionHouse.with(name: "incl-sigint", joinAfter: nil) { house in
            let from = await house.mark
            let include = try house.cli(["include", "--timeout", "60"])
            defer { include.kill() }
            try await house.waitForEvent("inclusion_waiting", from: from, timeout: .seconds(15))
            #expect(house.stick.isInclusionActive)
            include.signal(SIGINT)
            let exit = await include.waitForExit(timeout: .seconds(15))
            #expect(exit != nil && exit != .exited(0), "\(include.outputText)")
            _ = try await house.watcher.waitForMessage(
                topic: "Thuis/bridge/\(house.bridgeName)/request/cancel", from: from)
            try await MQTTTestClient.poll(timeout: .seconds(5), "the controller leaving inclusion mode") {
                !house.stick.isInclusionActive
            }
            #expect(house.bridge.isRunning)
            // The bridge is unaffected: it answers, and device commands work.
            let devices = try house.cli(["devices"])
            #expect(await devices.waitForExit(timeout: .seconds(15)) == .exited(0))
            try await house.watcher.publish(topic: "Thuis/device/bedroom/light/set", text: "25")
            try await MQTTTestClient.poll(timeout: .seconds(10), "level 25") { house.stick.level(node: 2) == 25 }
        }
    }

    @Test func excludeRemovesTheNodeAndClearsItsRetainedTopics() async throws {
        try await InclusionHouse.with(name: "incl-exclude", joinAfter: nil) { house in
            let from = await house.mark
            let exclude = try house.cli(["exclude", "--timeout", "30"])
            defer { exclude.kill() }
            try await house.waitForEvent("exclusion_waiting", from: from, timeout: .seconds(15))
            #expect(house.stick.pressNetworkButton(node: 2))
            let exit = await exclude.waitForExit(timeout: .seconds(30))
            #expect(exit == .exited(0), "\(exclude.outputText)")
            #expect(exclude.outputText.contains("node 2 removed"))
            try await house.waitForEvent("node_removed", from: from, timeout: .seconds(10))
            _ = try await house.watcher.waitForMessage(
                topic: "Thuis/bridge/\(house.bridgeName)/devices", from: from, timeout: .seconds(10)
            ) { Inventory($0).map { !$0.nodes.contains(2) } ?? false }
            // A fresh subscriber finds nothing retained for the removed device.
            let fresh = try await MQTTTestClient.connect(port: house.broker.port)
            try await fresh.subscribe("Thuis/device/bedroom/light/#")
            try await fresh.subscribe("Thuis/device/bedroom/light")
            try await fresh.barrier()  // past the retained messages that follow the SUBACKs
            let left = await fresh.received.filter { $0.topic.hasPrefix("Thuis/") }.map { "\($0.topic)=\($0.text)" }
            await fresh.close()
            #expect(left.isEmpty, "retained junk: \(left)")
            #expect(!house.stick.includedNodeIDs.contains(2))
        }
    }

    /// An exclusion's response follows what it changed, on the wire: OpenZWave reports the controller's completion
    /// before the node's removal, and the response still comes after the device's cleared retained topics and
    /// `node_removed` (the removal goes through the request's own sink, which the bridge publishes before answering).
    @Test func theExclusionsResponseFollowsTheRemovalOnTheWire() async throws {
        try await InclusionHouse.with(name: "incl-excl-order", joinAfter: nil) { house in
            let from = await house.mark
            let base = "Thuis/bridge/\(house.bridgeName)"
            try await house.watcher.publish(
                topic: "\(base)/request/exclude", text: #"{"transaction":"x1","timeout_s":30}"#)
            try await house.waitForEvent("exclusion_waiting", from: from, timeout: .seconds(15))
            #expect(house.stick.pressNetworkButton(node: 2))
            let response = try await house.watcher.waitForMessage(
                topic: "\(base)/response/exclude", from: from, timeout: .seconds(30))
            #expect(JSONMessage(response)?.string("status") == "ok", "\(response.text)")

            let seen = Array(await house.watcher.received.dropFirst(from))
            let answered = try #require(seen.firstIndex { $0.topic == "\(base)/response/exclude" })
            let removed = seen.firstIndex { $0.topic == house.eventTopic && JSONMessage($0)?.type == "node_removed" }
            let cleared = seen.firstIndex {
                $0.topic == "Thuis/device/bedroom/light/availability" && $0.payload.isEmpty
            }
            let order = seen.map { "\($0.topic)=\($0.text.prefix(40))" }
            #expect(removed.map { $0 < answered } == true, "node_removed after the response: \(order)")
            #expect(cleared.map { $0 < answered } == true, "retained topics cleared after the response: \(order)")
        }
    }

    @Test func anUnfinishedInterviewLeavesTheNodeUsableAndRefreshRetriesIt() async throws {
        try await InclusionHouse.with(name: "incl-interview", joinAfter: 1) { house in
            let from = await house.mark
            let stick = house.stick
            // A slow radio keeps the interview long enough for the node to stop answering in the middle of it.
            stick.setRadioLatency(.milliseconds(200))
            // The node stops answering right after it joined: its interview cannot finish.
            async let firstQuery = stick.waitForHostFrame(timeout: TestTime.scaled(.seconds(30))) {
                $0.destinationNode == 10
            }
            try await house.watcher.publish(
                topic: "Thuis/bridge/\(house.bridgeName)/request/include",
                text: #"{"transaction":"i1","timeout_s":20,"interview_timeout_s":4}"#)
            #expect(await firstQuery != nil)
            stick.setDead(node: 10, true)
            let response = try await house.watcher.waitForMessage(
                topic: "Thuis/bridge/\(house.bridgeName)/response/include", from: from, timeout: .seconds(40))
            let answer = try #require(JSONMessage(response), "\(response.text)")
            #expect(answer.string("transaction") == "i1" && answer.string("status") == "ok", "\(answer)")
            #expect(answer["data"]?["interview"] == "failed", "\(answer)")
            let failed = try await house.waitForEvent("interview_failed", from: from)
            #expect(failed.string("stage") != "", "no stage in \(failed)")
            // Usable for basic control: the node has its device.
            _ = try await house.watcher.waitForMessage(
                topic: "Thuis/device/unassigned/node10/availability", from: from, timeout: .seconds(10))
            stick.setDead(node: 10, false)
            stick.setRadioLatency(.milliseconds(5))
            try await house.watcher.publish(topic: "Thuis/device/unassigned/node10/set", text: "on")
            try await MQTTTestClient.poll(timeout: .seconds(15), "node 10 switched on by Basic Set") {
                stick.switchState(node: 10) == true
            }
            let refresh = try house.cli(["refresh", "10"])
            defer { refresh.kill() }
            #expect(await refresh.waitForExit(timeout: .seconds(180)) == .exited(0), "\(refresh.outputText)")
            #expect(refresh.outputText.contains("Everspring"), "\(refresh.outputText)")
        }
    }

    @Test func aMultiChannelDeviceGetsOneStanzaPerEndpoint() async throws {
        try await InclusionHouse.with(name: "incl-multi", joinAfter: 1, joinsAs: .powernode6) { house in
            let include = try house.cli(["include", "--timeout", "30"])
            defer { include.kill() }
            let exit = await include.waitForExit(timeout: .seconds(90))
            let output = include.outputText
            #expect(exit == .exited(0), "\(output)")
            #expect(output.contains("PowerNode"), "\(output)")
            for socket in 1...6 {
                #expect(
                    output.contains("node = 10\ninstance = \(socket)\n"), "no stanza for endpoint \(socket): \(output)")
            }
            #expect(output.components(separatedBy: "[[zwave.device]]").count - 1 == 6)
        }
    }

    @Test func stoppingTheBridgeDuringInclusionLeavesInclusionMode() async throws {
        try await InclusionHouse.with(name: "incl-stop", joinAfter: nil) { house in
            let from = await house.mark
            let include = try house.cli(["include", "--timeout", "120"])
            defer { include.kill() }
            _ = try await house.waitForEvent("inclusion_waiting", from: from, timeout: .seconds(15))
            #expect(house.stick.isInclusionActive)
            #expect(await house.bridge.stop(timeout: .seconds(60)) == .exited(0))
            #expect(!house.stick.isInclusionActive, "the controller was left in inclusion mode")
            let exit = await include.waitForExit(timeout: .seconds(15))
            #expect(exit == .exited(1), "\(include.outputText)")
        }
    }
}
