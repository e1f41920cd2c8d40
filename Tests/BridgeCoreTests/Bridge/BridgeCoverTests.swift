import BridgeCore
import TestSupport
import Testing

/// Covers through the bridge over fakes: the kind comes from the hardware, the position (% open) is the state, the
/// movement follows the level and the target the device reports, and `/set` takes open, close, stop or a position.
@Suite struct BridgeCoverTests {
    /// devices.toml's `node = 4, room = "living", name = "shutter"`.
    let shutter = configuredZWaveDevice(room: "living", name: "shutter", node: 4)
    let node = DeviceSource.zwave(node: 4, instance: 1)
    let base = "Thuis/device/living/shutter"

    func withBridge(_ body: @Sendable (Bridge, FakeMQTTPort, FakeDeviceBackend) async throws -> Void) async throws {
        try await withOneDeviceBridge(shutter, identifiedAs: .cover, body)
    }

    func set(_ topic: String, _ payload: String) -> InboundMessage {
        InboundMessage(topic: topic, payload: Array(payload.utf8), retained: false)
    }

    @Test func theStateIsThePositionAndTheMovementFollowsTheTarget() async throws {
        try await withBridge { bridge, mqtt, _ in
            guard case .array(let devices)? = await mqtt.events(on: "Thuis/bridge/living/devices").last else {
                Issue.record("no inventory")
                return
            }
            #expect(devices.first?["kind"] == "cover")
            // Fully open: Z-Wave's 99 is 100 %; no target reported yet: it stands, as far as the bridge can tell.
            await bridge.apply(.update(node, .level(99)))
            #expect(await mqtt.retained[base] == "100")
            #expect(await mqtt.retained["\(base)/movement"] == "stopped")
            // Closing: the target below the level; stopped where the target is.
            await bridge.apply(.update(node, .level(99)))
            await bridge.apply(.update(node, .target(0)))
            #expect(await mqtt.retained["\(base)/movement"] == "closing")
            // A v4 report of both (the level first): the movement waits for the target, never half applied (the
            // level 60 against the old target 0 would say closing; against 80, opening).
            await bridge.apply(.update(node, .level(60)))
            #expect(await mqtt.retained[base] == "60")
            await bridge.apply(.update(node, .target(60)))
            #expect(await mqtt.retained["\(base)/movement"] == "stopped")
            await bridge.apply(.update(node, .target(80)))
            #expect(await mqtt.retained["\(base)/movement"] == "opening")
            // Arrived: the level reaches the target it already had (the report repeats it).
            await bridge.apply(.update(node, .level(80)))
            await bridge.apply(.update(node, .target(80)))
            #expect(await mqtt.retained["\(base)/movement"] == "stopped")
            await bridge.apply(.update(node, .level(30)))
            await bridge.apply(.update(node, .target(30)))
            #expect(
                await mqtt.messages(on: "\(base)/movement").map(\.payload) == [
                    "stopped", "closing", "stopped", "opening", "stopped",
                ])
            #expect(await mqtt.messages(on: "\(base)/movement").allSatisfy(\.retain))
            #expect(await mqtt.messages(on: base).map(\.payload) == ["100", "60", "80", "30"])
        }
    }

    @Test func setTakesOpenCloseStopAndAPositionAndRejectsTheRest() async throws {
        try await withBridge { bridge, mqtt, zwave in
            for (count, payload) in ["open", "stop", "close", "100", "42"].enumerated() {
                await bridge.receive(set("\(base)/set", payload))
                await zwave.waitForCommands(count + 1)
            }
            #expect(await zwave.commands == [.level(99), .stop, .level(0), .level(99), .level(42)])
            await bridge.receive(set("\(base)/set", "on"))
            let rejected = await mqtt.events(on: "Thuis/bridge/living/event").filter {
                $0["type"] == "command_rejected"
            }
            #expect(
                rejected.first?["reason"]
                    == "unknown command \"on\"; a cover takes open, close, stop or a position 0..100 (% open)")
            // A typed on/off (a dashboard, HomeKit) is refused the same way; stop is a cover's only.
            #expect(await bridge.submit(.on, to: shutter.address, from: .homeKit) != nil)
            #expect(await bridge.submit(.stop, to: shutter.address, from: .homeKit) == nil)
            let topics = TopicScheme(prefix: "Thuis", bridge: "living").device(shutter.address)
            let wire = DeviceCommand.stop.wire(topics)
            #expect(wire.topic == "\(base)/set" && wire.payload == "stop")
        }
    }

    /// A `stop` replaces an `open` still waiting behind the command in flight: the same queue as every command.
    @Test func aStopReplacesAWaitingOpen() async throws {
        try await withBridge { bridge, _, zwave in
            await zwave.hold()
            await bridge.receive(set("\(base)/set", "close"))
            await zwave.waitForCommands(1)
            await bridge.receive(set("\(base)/set", "open"))
            await bridge.receive(set("\(base)/set", "stop"))
            await zwave.releaseAll()
            await zwave.waitForCommands(2)
            #expect(await zwave.commands == [.level(0), .stop])
        }
    }
}
