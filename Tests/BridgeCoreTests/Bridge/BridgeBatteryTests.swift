import BridgeCore
import Logging
import TestSupport
import Testing

/// Battery nodes through the bridge over fakes: `asleep` is an availability of its own (not `offline`), and the
/// battery level drives `battery_low` and the `low_battery` event at the `[zwave] low_battery` threshold.
@Suite struct BridgeBatteryTests {
    let hall = DeviceDescriptor(
        address: DeviceAddress(room: "hall", name: "motion"), kind: .sensor, source: .zwave(node: 12, instance: nil))
    let availability = "Thuis/device/hall/motion/availability"

    func withBridge(lowBattery: Int = 20, _ body: @Sendable (Bridge, FakeMQTTPort) async throws -> Void)
        async throws
    {
        let mqtt = FakeMQTTPort()
        let bridge = Bridge(
            identity: BridgeIdentity(name: "living"), devices: [hall], scenes: [],
            backends: [FakeDeviceBackend(adapter: .zwave)], lowBattery: lowBattery, mqtt: mqtt,
            logger: Logger(label: "test"))
        await bridge.start()
        await bridge.apply(.adapterAvailability(adapter: .zwave, online: true, reason: ""))
        try await body(bridge, mqtt)
        await bridge.shutdown()
    }

    func battery(_ level: Double) -> HardwareEvent {
        .update(.zwave(node: 12, instance: nil), .sensor(.battery, .measurement(.init(value: level, precision: 0))))
    }

    @Test func aSleepingNodeIsAsleepNotOfflineAndOnlineWhenItWakes() async throws {
        try await withBridge { bridge, mqtt in
            let node = DeviceSource.zwave(node: 12, instance: nil)
            #expect(await mqtt.retained[availability] == "online")
            await bridge.apply(.sleeping(node, asleep: true))
            #expect(await mqtt.retained[availability] == "asleep")
            await bridge.apply(.sleeping(node, asleep: false))
            #expect(await mqtt.retained[availability] == "online")
            await bridge.apply(.sleeping(node, asleep: true))
            // Dead wins over asleep; when it comes back it is asleep again.
            await bridge.apply(.availability(node, online: false))
            #expect(await mqtt.retained[availability] == "offline")
            await bridge.apply(.availability(node, online: true))
            #expect(await mqtt.retained[availability] == "asleep")
            // A lost adapter makes it offline too.
            await bridge.apply(.adapterAvailability(adapter: .zwave, online: false, reason: "unplugged"))
            #expect(await mqtt.retained[availability] == "offline")
            // Sleeping and waking are no events (a battery node does both many times a day); dying is one.
            let types = await mqtt.events(on: "Thuis/bridge/living/event").compactMap { $0["type"] }
            #expect(types.filter { $0 == "node_dead" }.count == 1, "\(types)")
            #expect(!types.contains { $0 == "node_asleep" || $0 == "node_awake" }, "\(types)")
            // The same fact again publishes nothing.
            let published = await mqtt.messages(on: availability).count
            await bridge.apply(.sleeping(node, asleep: true))
            #expect(await mqtt.messages(on: availability).count == published)
        }
    }

    /// A node that fell asleep before its values made it a device (an unassigned node) gets its device `asleep`.
    @Test func aDeviceDiscoveredOnASleepingNodeStartsAsleep() async throws {
        try await withBridge { bridge, mqtt in
            await bridge.apply(.sleeping(.zwave(node: 3, instance: nil), asleep: true))
            await bridge.apply(
                .discovered(
                    DeviceDescriptor(
                        address: TopicScheme.unassignedAddress(node: 3, instance: nil), kind: .sensor,
                        source: .zwave(node: 3, instance: 1), configured: false)))
            #expect(await mqtt.retained["Thuis/device/unassigned/node3/availability"] == "asleep")
        }
    }

    @Test func theBatteryLevelDrivesBatteryLowAndOneLowBatteryEventPerCrossing() async throws {
        try await withBridge { bridge, mqtt in
            await bridge.apply(.sensorsFound(.zwave(node: 12, instance: nil), [.battery: "%"]))
            let entry = await mqtt.events(on: "Thuis/bridge/living/devices").last
            #expect(entry?.serialized.contains(#""sensors":{"battery":"%","battery_low":null}"#) == true)
            for level in [50.0, 19, 10, 20, 5] { await bridge.apply(battery(level)) }
            #expect(
                await mqtt.messages(on: "Thuis/device/hall/motion/battery_low").map(\.payload)
                    == ["off", "on", "off", "on"])
            #expect(await mqtt.messages(on: "Thuis/device/hall/motion/battery_low").allSatisfy(\.retain))
            let low = await mqtt.events(on: "Thuis/bridge/living/event").filter { $0["type"] == "low_battery" }
            #expect(
                low.map(\.serialized) == [
                    #"{"type":"low_battery","device":"hall/motion","battery":19}"#,
                    #"{"type":"low_battery","device":"hall/motion","battery":5}"#,
                ])
        }
    }

    /// A first level that is low already is reported; a threshold of 0 never calls a battery low.
    @Test func aFirstLowLevelIsReportedAndThresholdZeroNeverIs() async throws {
        try await withBridge(lowBattery: 30) { bridge, mqtt in
            await bridge.apply(.sensorsFound(.zwave(node: 12, instance: nil), [.battery: "%"]))
            await bridge.apply(battery(25))
            #expect(await mqtt.retained["Thuis/device/hall/motion/battery_low"] == "on")
            #expect(await mqtt.events(on: "Thuis/bridge/living/event").contains { $0["type"] == "low_battery" })
        }
        try await withBridge(lowBattery: 0) { bridge, mqtt in
            await bridge.apply(.sensorsFound(.zwave(node: 12, instance: nil), [.battery: "%"]))
            await bridge.apply(battery(0))
            #expect(await mqtt.retained["Thuis/device/hall/motion/battery_low"] == "off")
            #expect(await !mqtt.events(on: "Thuis/bridge/living/event").contains { $0["type"] == "low_battery" })
        }
    }
}
