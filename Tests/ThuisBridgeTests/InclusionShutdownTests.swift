import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing
import ZWaveEmulator

/// SIGTERM to the real bridge process while the controller is in inclusion (exclusion) mode
/// and a device command is held for it.
@Suite(.endToEnd) struct InclusionShutdownTests {
    /// The controller command: its request verb, its event prefix, its Serial API function.
    struct Mode: Sendable, CustomTestStringConvertible {
        let verb: String
        let operation: String
        let function: UInt8
        var testDescription: String { verb }

        static let inclusion = Mode(verb: "include", operation: "inclusion", function: SerialFunction.addNodeToNetwork)
        static let exclusion = Mode(
            verb: "exclude", operation: "exclusion", function: SerialFunction.removeNodeFromNetwork)
    }

    @Test(arguments: [Mode.inclusion, .exclusion])
    func sigtermLeavesTheModeAndFailsTheHeldCommandWithoutSendingIt(_ mode: Mode) async throws {
        try await InclusionHouse.with(
            name: "stop-\(mode.verb)", joinAfter: nil, options: .init(bridgeArguments: ["--log-level", "debug"])
        ) { house in
            let stick = house.stick
            let from = await house.mark
            try await house.watcher.publish(
                topic: "Thuis/bridge/\(house.bridgeName)/request/\(mode.verb)",
                text: #"{"transaction":"t1","timeout_s":120}"#)
            try await house.waitForEvent("\(mode.operation)_waiting", from: from, timeout: .seconds(15))
            #expect(stick.isInclusionActive || stick.isExclusionActive)
            // A dimmer command while the library's traffic is frozen: the bridge holds it.
            let held = house.bridge.output.count
            try await house.watcher.publish(topic: "Thuis/device/bedroom/light/set", text: "40")
            try await MQTTTestClient.poll(timeout: .seconds(10), "the bridge holding the command") {
                house.bridge.output.dropFirst(held).contains { $0.text.contains("device command held") }
            }
            let sentBefore = stick.hostFrameCount

            house.bridge.signal(SIGTERM)
            #expect(await house.bridge.waitForExit(timeout: .seconds(20)) == .exited(0))

            // The held command failed, with the reason, as an event published before the bridge went offline.
            try await house.watcher.waitForMessage(
                topic: "Thuis/bridge/\(house.bridgeName)/state", text: "offline", from: from, timeout: .seconds(5))
            let events = await house.watcher.received(on: house.eventTopic).map(\.text)
            let failed = events.filter { $0.contains("\"command_failed\"") }
            #expect(failed.count == 1, "\(events)")
            #expect(failed.allSatisfy { $0.contains("bedroom/light") && $0.contains("bridge stopping") }, "\(failed)")
            let response = try await house.watcher.waitForJSON(
                topic: "Thuis/bridge/\(house.bridgeName)/response/\(mode.verb)", from: from, timeout: .seconds(5))
            #expect(response.string("error", contains: "bridge stopping"), "\(response)")
            // The controller left the mode: the stop reached the stick before the driver was torn down...
            #expect(!stick.isInclusionActive && !stick.isExclusionActive, "the stick was left in \(mode.operation)")
            let after = stick.receivedHostFrames.filter { $0.index >= sentBefore }
            #expect(
                after.contains { $0.frame.function == mode.function && ($0.frame.payload.first ?? 0) & 0x0F == 0x05 },
                "no stop frame: \(after)")
            // ...and the held Set (Switch Multilevel 0x26 0x01, plain or Multi Channel encapsulated) never did.
            let sets = after.filter { frame in
                guard frame.destinationNode == 2, let command = frame.command else { return false }
                return zip(command, command.dropFirst()).contains { $0 == (0x26, 0x01) }
            }
            #expect(sets.isEmpty, "the held command was sent: \(sets)")
            #expect(stick.level(node: 2) == 0)
        }
    }
}
