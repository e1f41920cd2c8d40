import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing
import ZWaveEmulator

/// A `set_config` to a battery node between wake-ups is answered at once as `pending` (a `command_pending` event
/// first), sent at the node's next wake-up, and ends with `pending_applied` when the node reports the value; the
/// bridge keeps it across a restart (OpenZWave's wake-up queue is in memory only). Emulated `sensors` network: the
/// MultiSensor 6 (node 2) sleeps; its parameter 3 (motion timeout, 2 bytes) is 240.
@Suite(.endToEnd) struct PendingCommandTests {
    @Test func aSetConfigToASleepingNodeIsHeldForItsWakeUpAndSurvivesARestart() async throws {
        let zwave = ConfigFixture.ZWave(devices: [.init(node: 2, room: "hall", name: "motion")])
        try await ZWaveHouse.with(name: "pending", network: .sensors, zwave: zwave, waking: [2, 3, 6]) { house in
            let events = "Thuis/bridge/pending/event"
            // Its command classes known (a set_config before that is refused by the library: the inventory has
            // its kind only then), asleep; from now on node 2 wakes only when the test says so.
            _ = try await house.watcher.waitForMessage(topic: "Thuis/bridge/pending/devices", timeout: .seconds(90)) {
                Inventory($0)?.entries.contains { $0["name"] == "motion" && $0["kind"] == "sensor" } == true
            }
            try await house.waitFor("hall/motion", "/temperature", "21.5", timeout: .seconds(60))
            house.stopWaking()

            // Every value OpenZWave has for the node, those no kind claims too (its wake-up interval, a Wake Up value
            // no topic carries), with the readings the topics carry.
            var mark = await house.mark
            try await house.watcher.publish(
                topic: "Thuis/bridge/pending/request/values", text: #"{"transaction":"v1","node":2}"#)
            let values = try await house.watcher.waitForMessage(
                topic: "Thuis/bridge/pending/response/values", from: mark
            ) { $0.text.contains(#""transaction":"v1""#) }.text
            #expect(values.contains(#""command_class":132,"instance":1,"index":0,"genre":"system""#), "\(values)")
            #expect(values.contains(#""command_class":49"#) && values.contains(#""value":21.5"#), "\(values)")
            try await house.waitForLatest("hall/motion", "/availability", "asleep", timeout: .seconds(60))

            // Held, answered at once with `pending`, nothing on the wire while it sleeps.
            mark = await house.mark
            var frames = house.stick.hostFrameCount
            try await Self.setConfig(house, parameter: 3, value: 30, transaction: "p1")
            let held = try await house.watcher.waitForEvent("command_pending", topic: events, from: mark)
            #expect(held.int("node") == 2 && held.int("parameter") == 3 && held.int("value") == 30, "\(held)")
            let response = try await Self.response(house, "p1", from: mark)
            #expect(response.contains(#""pending":true"#) && response.contains(#""value":30"#), "\(response)")
            #expect(Self.setFrames(house, since: frames).isEmpty, "a frame went to the sleeping node")
            #expect(house.stick.configParameter(node: 2, 3) == 240)

            // Its wake-up: the Set goes out, the node reports 30.
            mark = await house.mark
            frames = house.stick.hostFrameCount
            #expect(house.stick.wake(node: 2))
            let applied = try await house.watcher.waitForEvent(
                "pending_applied", topic: events, from: mark, timeout: .seconds(60))
            // How many frames OpenZWave sent the node after its Wake Up Notification before the held Set (a figure for
            // the closing note, not a bound).
            let toNode = house.stick.receivedHostFrames.filter { $0.index >= frames && $0.destinationNode == 2 }
            let before = toNode.prefix { $0.command?.starts(with: [0x70, 0x04]) != true }
            print("held set_config: \(before.count) frame(s) to the node after its wake-up before the Set")
            #expect(applied.int("parameter") == 3 && applied.int("value") == 30, "\(applied)")
            #expect(house.stick.configParameter(node: 2, 3) == 30)
            try await house.waitForLatest("hall/motion", "/availability", "asleep", from: mark, timeout: .seconds(60))

            // Held again, then the bridge restarts before the node wakes: the new process has it from the state
            // directory and gives it to the library at the wake-up.
            mark = await house.mark
            frames = house.stick.hostFrameCount
            try await Self.setConfig(house, parameter: 3, value: 45, transaction: "p2")
            try await house.watcher.waitForEvent("command_pending", topic: events, from: mark)
            #expect(await house.stopBridge() == .exited(0))
            #expect(Self.setFrames(house, since: frames).isEmpty, "a frame went to the sleeping node")
            mark = await house.mark
            try house.startBridge()
            _ = try await house.watcher.waitForMessage(
                topic: "Thuis/bridge/pending/state", from: mark, timeout: .seconds(90)
            ) {
                $0.text == "online"
            }
            try await house.waitForLatest("hall/motion", "/availability", "asleep", from: mark, timeout: .seconds(90))
            #expect(house.stick.configParameter(node: 2, 3) == 30)
            #expect(house.stick.wake(node: 2))
            let afterRestart = try await house.watcher.waitForEvent(
                "pending_applied", topic: events, from: mark, timeout: .seconds(60))
            #expect(afterRestart.int("value") == 45, "\(afterRestart)")
            #expect(house.stick.configParameter(node: 2, 3) == 45)
        }
    }

    static func setConfig(_ house: ZWaveHouse, parameter: Int, value: Int, transaction: String) async throws {
        try await house.watcher.publish(
            topic: "Thuis/bridge/\(house.bridgeName)/request/set_config",
            text: #"{"transaction":"\#(transaction)","node":2,"parameter":\#(parameter),"value":\#(value)}"#)
    }

    static func response(_ house: ZWaveHouse, _ transaction: String, from mark: Int) async throws -> String {
        try await house.watcher.waitForMessage(
            topic: "Thuis/bridge/\(house.bridgeName)/response/set_config", from: mark
        ) { $0.text.contains(#""transaction":"\#(transaction)""#) }.text
    }

    /// Configuration Set frames to node 2 since host frame `index`.
    static func setFrames(_ house: ZWaveHouse, since index: Int) -> [HostFrameEvent] {
        house.stick.receivedHostFrames.filter {
            $0.index >= index && $0.destinationNode == 2 && $0.command?.starts(with: [0x70, 0x04]) == true
        }
    }
}
