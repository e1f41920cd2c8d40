import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing
import ZWaveEmulator

/// Bad input: the real bridge with the emulated Z-Wave house gets malformed commands, oversized and
/// invalid payloads, garbage topics, unknown devices and unknown requests. Each one is answered with a reason
/// (`command_rejected` event or an `error` response); no device moves; the bridge keeps running and serving.
@Suite(.endToEnd) struct FaultBadInputTests {
    /// One refused message: where it went, what it carried, what the reason must say.
    struct Case: Sendable {
        let topic: String
        let payload: [UInt8]
        let reason: String
    }

    @Test func everyMalformedCommandIsRejectedWithItsReason() async throws {
        try await FaultHouse.with(name: "badinput") { house in
            let stick = try #require(house.stick)
            try await house.waitForZWaveOnline()
            try await house.waitFor(topic: house.topic("bedroom/light"), "0", timeout: .seconds(60))
            let light = house.topic("bedroom/light", "/set")
            let socket = house.topic("living/subwoofer", "/set")
            let cases: [Case] = [
                Case(topic: light, payload: Array("abc".utf8), reason: "unknown command"),
                Case(topic: light, payload: Array("-5".utf8), reason: "out of range"),
                Case(topic: light, payload: Array("150".utf8), reason: "out of range"),
                Case(topic: light, payload: Array("99999999999999999999999".utf8), reason: "unknown command"),
                Case(topic: light, payload: Array("4 2".utf8), reason: "unknown command"),
                Case(topic: light, payload: [], reason: "empty payload"),
                Case(topic: light, payload: Array(" \t\n".utf8), reason: "empty payload"),
                Case(topic: light, payload: [0x6F, 0xFF, 0xFE, 0x6E], reason: "not valid UTF-8"),
                Case(topic: light, payload: [0x00, 0x01], reason: "unknown command"),
                Case(topic: light, payload: Array(String(repeating: "9", count: 65).utf8), reason: "too long"),
                // 16 KiB: over the bridge's 4 KiB inbound limit, reported by size, never decoded.
                Case(topic: light, payload: Array(repeating: 0x37, count: 16 << 10), reason: "too large"),
                Case(topic: socket, payload: Array("50".utf8), reason: "takes on, off or toggle"),
                Case(topic: socket, payload: Array("standby".utf8), reason: "unknown command"),
                Case(
                    topic: house.topic("bedroom/light", "/volume/set"), payload: Array("10".utf8),
                    reason: "has no volume"),
                Case(
                    topic: house.topic("bedroom/light", "/input/set"), payload: Array("hdmi1".utf8),
                    reason: "has no volume"),
                Case(
                    topic: house.topic("attic/lamp", "/set"), payload: Array("on".utf8),
                    reason: "unknown device attic/lamp"),
                Case(
                    topic: "Thuis/device/bed room/light/set", payload: Array("on".utf8), reason: "is not [A-Za-z0-9_-]+"
                ),
                Case(
                    topic: "Thuis/device/slaapkamer/lämp/set", payload: Array("on".utf8),
                    reason: "is not [A-Za-z0-9_-]+"),
                Case(
                    topic: house.topic("bedroom/light", "/power/set"), payload: Array("5".utf8),
                    reason: "unknown suffix"),
            ]
            let mark = await house.mark
            // 1 MB: over the bridge's MQTT 5 Maximum Packet Size (64 KiB); the broker never sends it to the
            // bridge. Published first, so the later rejections prove the broker has dealt with it.
            try await house.watcher.publish(topic: light, payload: Array(repeating: 0x37, count: 1 << 20))
            for item in cases {
                try await house.watcher.publish(topic: item.topic, payload: item.payload)
            }
            try await MQTTTestClient.poll(timeout: .seconds(30), "\(cases.count) command_rejected events") {
                await house.events(from: mark).filter { $0.type == "command_rejected" }.count >= cases.count
            }
            let rejections = await house.events(from: mark).filter { $0.type == "command_rejected" }
            #expect(rejections.count == cases.count, "\(rejections)")
            for item in cases {
                #expect(
                    rejections.contains {
                        $0.string("topic") == item.topic && $0.string("reason", contains: item.reason)
                    },
                    "no rejection of \(item.payload.count) bytes on \(item.topic) saying \"\(item.reason)\"")
            }
            // The 16 KiB payload is not echoed back: the event carries its size only.
            let large = try #require(rejections.first { $0.string("reason", contains: "too large") })
            #expect(
                large.message.payload.count < 1_000, "the oversized rejection is \(large.message.payload.count) bytes")
            #expect(large.string("reason", contains: "\(16 << 10) bytes"), "\(large)")
            #expect(
                !rejections.contains {
                    $0.int("payload_bytes") == 1 << 20 || $0.string("reason", contains: "\(1 << 20)")
                },
                "the 1 MB payload reached the bridge")
            #expect(stick.level(node: 2) == 0, "no malformed command moved the dimmer")
            #expect(house.bridge.isRunning)

            // Still serving: a valid command afterwards lands.
            let after = await house.mark
            try await house.publish(light, "12")
            try await house.waitFor(topic: house.topic("bedroom/light"), "12", from: after)
            #expect(stick.level(node: 2) == 12)
        }
    }

    @Test func unknownAndMalformedBridgeRequestsGetAnErrorResponse() async throws {
        var options = FaultHouse.Options()
        options.zwave = false
        try await FaultHouse.with(name: "badrequest", options: options) { house in
            try await house.waitFor(topic: house.stateTopic, "online")
            let base = "Thuis/bridge/badrequest"
            let cases: [(command: String, payload: [UInt8], error: String)] = [
                ("frobnicate", [], "unknown command \"frobnicate\""),
                ("devices", Array("not json".utf8), "malformed JSON"),
                ("devices", Array("[1,2]".utf8), "must be a JSON object"),
                ("devices", [0x7B, 0xFF, 0x7D], "malformed JSON"),
                ("devices", Array(String(repeating: "[", count: 3_000).utf8), "nested too deeply"),
                ("devices", Array(repeating: 0x20, count: 20_000), "request too long"),
            ]
            for (index, item) in cases.enumerated() {
                let mark = await house.mark
                try await house.watcher.publish(topic: "\(base)/request/\(item.command)", payload: item.payload)
                let response = try await house.watcher.waitForJSON(
                    topic: "\(base)/response/\(item.command)", from: mark
                )
                #expect(response.string("status") == "error", "case \(index): \(response)")
                #expect(response.string("error", contains: item.error), "case \(index): \(response)")
                #expect(!response.message.retained)
            }
            // A well-formed request still works.
            let mark = await house.mark
            try await house.publish("\(base)/request/devices", #"{"transaction":"t1"}"#)
            let ok = try await house.watcher.waitForJSON(topic: "\(base)/response/devices", from: mark)
            #expect(ok.string("status") == "ok" && ok.string("transaction") == "t1", "\(ok)")
            #expect(house.bridge.isRunning)
        }
    }

    /// Topics the bridge publishes to come from devices.toml only through scene mappings: wildcards, `$`
    /// topics and control characters there refuse the configuration (exit 2) before anything starts.
    @Test(arguments: ["Thuis/scene/+", "Thuis/#", "$SYS/broker", "Thuis/scene/a\u{1}b"])
    func aSceneTopicThatCannotBePublishedToIsRefused(topic: String) async throws {
        let directory = try TemporaryDirectory(prefix: "thuis-badscene")
        defer { directory.remove() }
        let fixture = ConfigFixture(
            name: "scenes",
            zwave: .init(
                port: directory.file("zwave"), devices: [.init(node: 2, room: "bedroom", name: "light")],
                scenes: [.init(node: 2, scene: 26, topic: topic, payload: "on")]))
        let config = try directory.write("devices.toml", fixture.text)
        let bridge = try ChildProcess(
            executable: try BuiltProduct.executable(named: "thuis-bridge").path, arguments: ["run", "--config", config])
        #expect(await bridge.waitForExit(timeout: .seconds(20)) == .exited(2))
        await bridge.waitForOutputEnd(timeout: .seconds(5))
        #expect(bridge.outputText.contains("topic"), "\(bridge.outputText)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("zwave")))
    }
}
