import BridgeCore
import TestSupport
import Testing

/// Door locks through the bridge over fakes: the kind comes from the hardware, the state is `locked`/`unlocked`, a
/// jam `jammed` until the next report, and `/set` takes `lock` or `unlock` only.
@Suite struct BridgeLockTests {
    /// devices.toml's `node = 7, room = "hall", name = "door"`.
    let door = configuredZWaveDevice(room: "hall", name: "door", node: 7)
    let node = DeviceSource.zwave(node: 7, instance: 1)
    var base: String { "Thuis/device/\(door.address)" }

    func set(_ payload: String) -> InboundMessage {
        InboundMessage(topic: "\(base)/set", payload: Array(payload.utf8), retained: false)
    }

    @Test func theStateIsLockedUnlockedOrJammedUntilTheNextReport() async throws {
        try await withOneDeviceBridge(door, identifiedAs: .lock) { bridge, mqtt, _ in
            guard case .array(let devices)? = await mqtt.events(on: "Thuis/bridge/living/devices").last else {
                Issue.record("no inventory")
                return
            }
            #expect(devices.first?["kind"] == "lock")
            // Nothing before the first report (no `unknown` placeholder).
            #expect(await mqtt.retained[base] == nil)
            await bridge.apply(.update(node, .lock(.locked)))
            await bridge.apply(.update(node, .lock(.locked)))
            await bridge.apply(.update(node, .lock(.jammed)))
            // The lock reports where the bolt is again: jammed ends, though the mode is the one before the jam.
            await bridge.apply(.update(node, .lock(.locked)))
            await bridge.apply(.update(node, .lock(.unlocked)))
            #expect(await mqtt.messages(on: base).map(\.payload) == ["locked", "jammed", "locked", "unlocked"])
            #expect(await mqtt.messages(on: base).allSatisfy(\.retain))
        }
    }

    @Test func setTakesLockAndUnlockAndRejectsTheRest() async throws {
        try await withOneDeviceBridge(door, identifiedAs: .lock) { bridge, mqtt, zwave in
            for (count, payload) in ["lock", "UNLOCK"].enumerated() {
                await bridge.receive(set(payload))
                await zwave.waitForCommands(count + 1)
            }
            #expect(await zwave.commands == [.setLocked(true), .setLocked(false)])
            for payload in ["on", "open", "50"] { await bridge.receive(set(payload)) }
            let rejected = await mqtt.events(on: "Thuis/bridge/living/event").filter {
                $0["type"] == "command_rejected"
            }
            #expect(
                rejected.map { $0["reason"] } == [
                    "unknown command \"on\"; a lock takes lock or unlock",
                    "unknown command \"open\"; a lock takes lock or unlock",
                    "unknown command \"50\"; a lock takes lock or unlock",
                ])
            // Typed commands (a dashboard, HomeKit) are checked the same way: a lock takes no on or level, and only
            // a lock locks.
            #expect(await bridge.submit(.on, to: door.address, from: .homeKit) != nil)
            #expect(await bridge.submit(.level(50), to: door.address, from: .homeKit) != nil)
            #expect(await bridge.submit(.setLocked(true), to: door.address, from: .homeKit) == nil)
            await zwave.waitForCommands(3)
            #expect(await zwave.commands == [.setLocked(true), .setLocked(false), .setLocked(true)])
            let topics = TopicScheme(prefix: "Thuis", bridge: "living").device(door.address)
            let wire = DeviceCommand.setLocked(false).wire(topics)
            #expect(wire.topic == "\(base)/set" && wire.payload == "unlock")
        }
    }

    @Test func onlyALockTakesLock() throws {
        #expect(throws: PayloadError.self) { try PayloadParser.deviceCommand(Array("lock".utf8), kind: .binarySwitch) }
        #expect(throws: PayloadError.self) { try PayloadParser.deviceCommand(Array("lock".utf8), kind: .cover) }
        let socket = DeviceDescriptor(
            address: DeviceAddress(room: "hall", name: "plug"), kind: .socket, source: .zwave(node: 3, instance: 1))
        #expect(
            DeviceCommand.setLocked(true).refusal(for: socket)
                == CommandRefusal("a socket has no lock; only a lock"))
    }
}
