import BridgeCore
import Logging
import TestSupport
import Testing

@Suite struct BridgeTests {
    let bedroom = DeviceDescriptor(
        address: DeviceAddress(room: "bedroom", name: "light"), kind: .dimmer, source: .zwave(node: 2, instance: nil),
        metered: true)
    let ambilight = DeviceDescriptor(
        address: DeviceAddress(room: "living", name: "ambilight"), kind: .socket, source: .zwave(node: 3, instance: 4),
        metered: true)
    let receiver = DeviceDescriptor(
        address: DeviceAddress(room: "living", name: "receiver"), kind: .socket, source: .zwave(node: 3, instance: 1))
    let tv = DeviceDescriptor(
        address: DeviceAddress(room: "living", name: "tv"), kind: .tv, source: .cec(logicalAddress: 0),
        inputs: ["appletv": "1.0.0.0"])

    /// A bridge over fakes, with its command runner going for the duration of `body`.
    func withBridge(
        scenes: [ZWaveSceneConfig] = [],
        _ body: @Sendable (Bridge, FakeMQTTPort, FakeDeviceBackend, FakeDeviceBackend) async throws -> Void
    ) async throws {
        let mqtt = FakeMQTTPort()
        let zwave = FakeDeviceBackend(adapter: .zwave)
        let cec = FakeDeviceBackend(adapter: .cec)
        let bridge = Bridge(
            identity: BridgeIdentity(name: "living"), devices: [bedroom, ambilight, receiver, tv], scenes: scenes,
            backends: [zwave, cec], mqtt: mqtt, logger: Logger(label: "test"))
        await bridge.start()
        await bridge.apply(.adapterAvailability(adapter: .zwave, online: true, reason: ""))
        await bridge.apply(.adapterAvailability(adapter: .cec, online: true, reason: ""))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await bridge.runCommandQueue() }
            try await body(bridge, mqtt, zwave, cec)
            await bridge.shutdown()
            try await group.waitForAll()
        }
    }

    /// A dead node gives one `node_dead` event, with the node and every configured device of it, and marks
    /// each of them offline, also when none of them is the node itself or its endpoint 1 (PowerNode sockets 2-3).
    @Test func aDeadNodeIsOneEventAndEveryDeviceOfItGoesOffline() async throws {
        let sockets = (2...3).map { (socket: Int) -> DeviceDescriptor in
            DeviceDescriptor(
                address: DeviceAddress(room: "hall", name: "socket\(socket)"), kind: .socket,
                source: .zwave(node: 5, instance: socket), metered: true)
        }
        let mqtt = FakeMQTTPort()
        let bridge = Bridge(
            identity: BridgeIdentity(name: "living"), devices: sockets, scenes: [],
            backends: [FakeDeviceBackend(adapter: .zwave)], mqtt: mqtt, logger: Logger(label: "test"))
        await bridge.start()
        await bridge.apply(.adapterAvailability(adapter: .zwave, online: true, reason: ""))
        await bridge.apply(.availability(.zwave(node: 5, instance: nil), online: false))
        let retained = await mqtt.retained
        #expect(retained["Thuis/device/hall/socket2/availability"] == "offline")
        #expect(retained["Thuis/device/hall/socket3/availability"] == "offline")
        var events = await mqtt.messages(on: "Thuis/bridge/living/event").map(\.payload)
        #expect(
            events == [
                #"{"type":"node_dead","node":5,"device":"hall/socket2","devices":["hall/socket2","hall/socket3"]}"#
            ])
        // OpenZWave reports the dead node again (every failed send once it has three errors): the same fact.
        await bridge.apply(.availability(.zwave(node: 5, instance: 2), online: false))
        #expect(await mqtt.messages(on: "Thuis/bridge/living/event").count == 1)
        await bridge.apply(.availability(.zwave(node: 5, instance: nil), online: true))
        await bridge.apply(.availability(.zwave(node: 5, instance: nil), online: true))
        events = await mqtt.messages(on: "Thuis/bridge/living/event").map(\.payload)
        #expect(events.count == 2, "\(events)")
        #expect(events.last?.hasPrefix(#"{"type":"node_alive","node":5,"#) == true)
        #expect(await mqtt.retained["Thuis/device/hall/socket2/availability"] == "online")
    }

    /// Power and energy keep the format of their first report: a later report with more decimal places is
    /// published with the first one's, and one that differs only beyond them is no change.
    @Test func measurementsKeepTheFormatOfTheirFirstReport() async throws {
        try await withBridge { bridge, mqtt, _, _ in
            let power = "Thuis/device/bedroom/light/power"
            let energy = "Thuis/device/bedroom/light/energy"
            let source = DeviceSource.zwave(node: 2, instance: 1)
            func report(_ update: HardwareEvent.StateUpdate) async { await bridge.apply(.update(source, update)) }
            await report(.power(.init(value: 0, precision: 1)))
            await report(.power(.init(value: 0, precision: 2)))
            await report(.power(.init(value: 53.62, precision: 2)))
            await report(.power(.init(value: 53.64, precision: 3)))
            await report(.energy(.init(value: 2.5, precision: 2)))
            await report(.energy(.init(value: 2.5, precision: 0)))
            #expect(await mqtt.messages(on: power).map(\.payload) == ["0.0", "53.6"])
            #expect(await mqtt.messages(on: energy).map(\.payload) == ["2.50"])
        }
    }

    func set(_ topic: String, _ payload: String, retained: Bool = false) -> InboundMessage {
        InboundMessage(topic: topic, payload: Array(payload.utf8), retained: retained)
    }

    @Test func startSubscribesAndPublishesOnlineAndAvailability() async throws {
        try await withBridge { _, mqtt, _, _ in
            #expect(await mqtt.subscriptions.contains("Thuis/device/+/+/set"))
            #expect(await mqtt.subscriptions.contains("Thuis/bridge/living/request/+"))
            let retained = await mqtt.retained
            #expect(retained["Thuis/bridge/living/state"] == "online")
            #expect(retained["Thuis/device/bedroom/light/availability"] == "online")
            // The inventory lists the PowerNode socket by node and instance.
            let inventory = try JSONValue.parse(Array((retained["Thuis/bridge/living/devices"] ?? "").utf8))
            let entries: [JSONValue] = if case .array(let list) = inventory { list } else { [] }
            #expect(entries.contains { $0["node"] == 3 && $0["instance"] == 4 }, "\(inventory)")
        }
    }

    @Test func setLevelReachesTheBackendAndStateComesBackFromTheHardware() async throws {
        try await withBridge { bridge, mqtt, zwave, _ in
            await bridge.receive(set("Thuis/device/bedroom/light/set", "40"))
            await zwave.waitForCommands(1)
            #expect(await zwave.commands == [.level(40)])
            #expect(
                await mqtt.retained["Thuis/device/bedroom/light"] == nil, "state is only published from the hardware")
            await bridge.apply(.update(.zwave(node: 2, instance: 1), .level(40)))
            #expect(await mqtt.retained["Thuis/device/bedroom/light"] == "40")
            await bridge.receive(set("Thuis/device/bedroom/light/set", "off"))
            await zwave.waitForCommands(2)
            await bridge.apply(.update(.zwave(node: 2, instance: 1), .level(0)))
            await bridge.receive(set("Thuis/device/bedroom/light/set", "on"))
            await zwave.waitForCommands(3)
            await bridge.apply(.update(.zwave(node: 2, instance: 1), .level(40)))
            await bridge.receive(set("Thuis/device/bedroom/light/set", "toggle"))
            await zwave.waitForCommands(4)
            #expect(await zwave.commands == [.level(40), .level(0), .level(40), .level(0)])
        }
    }

    @Test func aBurstIsCoalescedToTheLastLevel() async throws {
        try await withBridge { bridge, _, zwave, _ in
            await zwave.hold()
            for level in 1...99 { await bridge.receive(set("Thuis/device/bedroom/light/set", String(level))) }
            await zwave.waitForCommands(1)
            await zwave.releaseAll()
            await zwave.waitForCommands(2)
            #expect(await zwave.commands == [.level(1), .level(99)])
        }
    }

    @Test func aToggleIsResolvedFromTheStateWhenItIsSent() async throws {
        try await withBridge { bridge, _, zwave, _ in
            await bridge.apply(.update(.zwave(node: 2, instance: 1), .level(60)))
            await bridge.receive(set("Thuis/device/bedroom/light/set", "toggle"))
            await zwave.waitForCommands(1)
            #expect(await zwave.commands == [.level(0)], "resolved from the current state, then sent")
        }
    }

    /// Home Assistant sets a brightness as the level, then `on`: one Set. An `on` behind a level in flight
    /// keeps the level once it is confirmed; an `on` behind a waiting level does not replace it.
    @Test func aLevelThenOnIsOneSet() async throws {
        try await withBridge { bridge, _, zwave, _ in
            await zwave.hold()
            await bridge.receive(set("Thuis/device/bedroom/light/set", "50"))
            await bridge.receive(set("Thuis/device/bedroom/light/set", "on"))
            await bridge.receive(set("Thuis/device/bedroom/light/get", ""))  // another channel, runs after the on
            await bridge.apply(.update(.zwave(node: 2, instance: nil), .level(50)))
            await zwave.releaseAll()
            await zwave.waitForCommands(2)
            #expect(await zwave.commands == [.level(50), .refresh])
        }
        try await withBridge { bridge, _, zwave, _ in
            await zwave.hold()
            await bridge.receive(set("Thuis/device/bedroom/light/set", "30"))
            await zwave.waitForCommands(1)
            await bridge.receive(set("Thuis/device/bedroom/light/set", "50"))
            await bridge.receive(set("Thuis/device/bedroom/light/set", "on"))
            await zwave.releaseAll()
            await zwave.waitForCommands(2)
            #expect(await zwave.commands == [.level(30), .level(50)])
        }
    }

    @Test func aCommandStaysInFlightUntilTheBackendReturns() async throws {
        try await withBridge { bridge, _, zwave, _ in
            await zwave.hold()
            await bridge.receive(set("Thuis/device/bedroom/light/set", "40"))
            await zwave.waitForCommands(1)
            for level in 41...60 { await bridge.receive(set("Thuis/device/bedroom/light/set", String(level))) }
            #expect(await zwave.commands == [.level(40)])
            await zwave.releaseAll()
            await zwave.waitForCommands(2)
            #expect(await zwave.commands == [.level(40), .level(60)])
        }
    }

    @Test func aFailedCommandIsReportedAndFreesTheDevice() async throws {
        try await withBridge { bridge, mqtt, zwave, _ in
            await zwave.fail(with: "node 2 is not ready")
            let published = await mqtt.published.count
            await bridge.receive(set("Thuis/device/bedroom/light/set", "40"))
            await mqtt.waitFor("Thuis/bridge/living/event", after: published)
            let events = await mqtt.events(on: "Thuis/bridge/living/event")
            #expect(
                events.contains {
                    $0["type"] == "command_failed" && $0["command"] == "level 40"
                        && $0["reason"] == "node 2 is not ready"
                })
            await zwave.fail(with: nil)
            await bridge.receive(set("Thuis/device/bedroom/light/set", "30"))
            await zwave.waitForCommands(2)
            #expect(await zwave.commands == [.level(40), .level(30)])
        }
    }

    @Test func retainedUnknownAndMalformedCommandsAreRejectedWithAReason() async throws {
        try await withBridge { bridge, mqtt, zwave, _ in
            await bridge.receive(set("Thuis/device/bedroom/light/set", "40", retained: true))
            await bridge.receive(set("Thuis/device/attic/lamp/set", "on"))
            await bridge.receive(set("Thuis/device/bedroom/light/set", "abc"))
            await bridge.receive(set("Thuis/device/living/receiver/volume/set", "10"))
            await bridge.receive(
                InboundMessage(topic: "Thuis/device/bedroom/light/set", payload: [0xFF], retained: false))
            let events = await mqtt.events(on: "Thuis/bridge/living/event")
            let reasons = events.compactMap { event -> String? in
                guard event["type"] == "command_rejected", case .string(let reason)? = event["reason"] else {
                    return nil
                }
                return reason
            }
            #expect(reasons.count == 5)
            #expect(reasons[0].contains("retained"))
            #expect(reasons[1].contains("unknown device attic/lamp"))
            #expect(reasons[2].contains("unknown command"))
            #expect(reasons[3].contains("has no volume"))
            #expect(reasons[4].contains("UTF-8"))
            #expect(await zwave.commands.isEmpty)
        }
    }

    @Test func commandsForAnOfflineAdapterAreRejectedNotDropped() async throws {
        try await withBridge { bridge, mqtt, zwave, _ in
            await bridge.apply(.adapterAvailability(adapter: .zwave, online: false, reason: "stick unplugged"))
            #expect(await mqtt.retained["Thuis/device/bedroom/light/availability"] == "offline")
            await bridge.receive(set("Thuis/device/bedroom/light/set", "on"))
            let events = await mqtt.events(on: "Thuis/bridge/living/event")
            #expect(events.contains { $0["type"] == "adapter_lost" && $0["reason"] == "stick unplugged" })
            #expect(
                events.contains { $0["type"] == "command_rejected" && $0["reason"] == "the zwave adapter is offline" })
            #expect(await zwave.commands.isEmpty)
        }
    }

    @Test func socketMetersGoToTheirOwnSocket() async throws {
        try await withBridge { bridge, mqtt, _, _ in
            await bridge.apply(.update(.zwave(node: 3, instance: 4), .power(.init(value: 123.4, precision: 1))))
            await bridge.apply(.update(.zwave(node: 3, instance: 4), .energy(.init(value: 2.5, precision: 2))))
            let retained = await mqtt.retained
            #expect(retained["Thuis/device/living/ambilight/power"] == "123.4")
            #expect(retained["Thuis/device/living/ambilight/energy"] == "2.50")
            #expect(retained["Thuis/device/living/receiver/power"] == nil)
        }
    }

    @Test func scenesArePublishedNotRetainedAndMapped() async throws {
        let mapping = ZWaveSceneConfig(node: 2, scene: 26, topic: "Thuis/scene/homeTheater", payload: "on")
        try await withBridge(scenes: [mapping]) { bridge, mqtt, _, _ in
            await bridge.apply(.scene(node: 2, instance: nil, sceneID: 26))
            #expect(
                await mqtt.messages(on: "Thuis/device/bedroom/light/scene") == [
                    .init(topic: "Thuis/device/bedroom/light/scene", payload: "26", retain: false)
                ])
            #expect(await mqtt.messages(on: "Thuis/scene/homeTheater").map(\.payload) == ["on"])
            #expect(await mqtt.messages(on: "Thuis/scene/homeTheater").allSatisfy { !$0.retain })
        }
    }

    @Test func deadNodeTakesAllItsSocketsOffline() async throws {
        try await withBridge { bridge, mqtt, _, _ in
            await bridge.apply(.availability(.zwave(node: 3, instance: nil), online: false))
            let retained = await mqtt.retained
            #expect(retained["Thuis/device/living/ambilight/availability"] == "offline")
            #expect(retained["Thuis/device/living/receiver/availability"] == "offline")
            #expect(retained["Thuis/device/bedroom/light/availability"] == "online")
        }
    }

    @Test func requestsGetExactlyOneResponse() async throws {
        try await withBridge { bridge, mqtt, _, _ in
            await bridge.receive(set("Thuis/bridge/living/request/devices", #"{"transaction":"a1"}"#))
            await bridge.receive(set("Thuis/bridge/living/request/frobnicate", #"{"transaction":"a2"}"#))
            await bridge.receive(set("Thuis/bridge/living/request/devices", "{not json"))
            let devices = await mqtt.events(on: "Thuis/bridge/living/response/devices")
            #expect(devices.count == 2)
            #expect(devices[0]["transaction"] == "a1" && devices[0]["status"] == "ok")
            #expect(devices[1]["status"] == "error")
            let unknown = await mqtt.events(on: "Thuis/bridge/living/response/frobnicate")
            #expect(unknown.count == 1 && unknown[0]["status"] == "error" && unknown[0]["transaction"] == "a2")
        }
    }

    @Test func shutdownMarksEveryDeviceOffline() async throws {
        let mqtt = FakeMQTTPort()
        let bridge = Bridge(
            identity: BridgeIdentity(name: "living"), devices: [bedroom, tv],
            backends: [FakeDeviceBackend(adapter: .zwave), FakeDeviceBackend(adapter: .cec)], mqtt: mqtt,
            logger: Logger(label: "test"))
        await bridge.start()
        await bridge.apply(.adapterAvailability(adapter: .zwave, online: true, reason: ""))
        await bridge.apply(.adapterAvailability(adapter: .cec, online: true, reason: ""))
        var retained = await mqtt.retained
        // Online before the stop, so the stop is what marks them offline.
        #expect(retained["Thuis/device/living/tv/availability"] == "online")
        #expect(retained["Thuis/device/bedroom/light/availability"] == "online")
        await bridge.shutdown()
        retained = await mqtt.retained
        #expect(retained["Thuis/device/living/tv/availability"] == "offline")
        #expect(retained["Thuis/device/bedroom/light/availability"] == "offline")
    }
}
