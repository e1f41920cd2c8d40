import BridgeCore
import Logging
import Synchronization
import TestSupport
import Testing

/// What a front end that follows the bridge (the dashboard) is told: every publication, in order, before it goes to
/// MQTT, and how each command sent to the hardware went; and the mapped scenes it may publish.
@Suite struct BridgeFrontEndTests {
    /// A front end that records what it is told.
    final class Recorder: BridgeFrontEnd, Sendable {
        let publications = Mutex<[FakeMQTTPort.Published]>([])
        let (reports, reported) = AsyncStream.makeStream(of: CommandReport.self)
        var subscriptions: [String] { [] }
        func owns(_ topic: String) -> Bool { false }
        func receive(_ message: InboundMessage) async {}
        func inventoryChanged(_ inventory: BridgeInventory) async {}
        func run(serving bridge: Bridge) async {}
        var observesPublications: Bool { true }
        func bridgePublished(topic: String, payload: [UInt8], retain: Bool) {
            let text = String(decoding: payload, as: UTF8.self)
            publications.withLock { $0.append(.init(topic: topic, payload: text, retain: retain)) }
        }
        func commandFinished(_ report: CommandReport) { reported.yield(report) }
    }

    let light = DeviceDescriptor(
        address: DeviceAddress(room: "bedroom", name: "light"), kind: .dimmer, source: .zwave(node: 2, instance: nil))
    let scene = ZWaveSceneConfig(node: 2, scene: 26, topic: "Thuis/scene/movie", payload: "on")

    func withBridge(_ body: (Bridge, FakeMQTTPort, FakeDeviceBackend, Recorder) async throws -> Void) async throws {
        let mqtt = FakeMQTTPort()
        let zwave = FakeDeviceBackend(adapter: .zwave)
        let recorder = Recorder()
        let bridge = Bridge(
            identity: BridgeIdentity(name: "living"), devices: [light], scenes: [scene], backends: [zwave],
            frontEnds: [recorder], mqtt: mqtt, logger: Logger(label: "test"))
        await bridge.start()
        await bridge.apply(.adapterAvailability(adapter: .zwave, online: true, reason: ""))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await bridge.runCommandQueue() }
            try await body(bridge, mqtt, zwave, recorder)
            await bridge.shutdown()
            try await group.waitForAll()
        }
    }

    @Test func everyPublicationReachesTheFrontEndInTheOrderMQTTGetsIt() async throws {
        try await withBridge { bridge, mqtt, _, recorder in
            await bridge.apply(.update(.zwave(node: 2, instance: nil), .level(40)))
            await bridge.publish(event: .adapterRecovered(.cec))
            let seen = recorder.publications.withLock { $0 }
            #expect(seen == (await mqtt.published))
            #expect(seen.contains(.init(topic: "Thuis/device/bedroom/light", payload: "40", retain: true)))
            #expect(seen.contains(.init(topic: "Thuis/bridge/living/state", payload: "online", retain: true)))
        }
    }

    @Test func eachCommandSentIsReportedWithItsOutcome() async throws {
        try await withBridge { bridge, _, zwave, recorder in
            var next = recorder.reports.makeAsyncIterator()
            await bridge.receive(set("30"))
            let first = try #require(await next.next())
            await zwave.fail(with: "no answer")
            await bridge.receive(set("50"))
            let reports = [first, try #require(await next.next())]
            #expect(reports.map(\.command) == [.level(30), .level(50)])
            #expect(reports.map(\.failure) == [nil, "no answer"])
            #expect(reports.allSatisfy { $0.device == light.address && $0.adapter == .zwave && $0.duration >= .zero })
        }
    }

    @Test func onlyAMappedSceneCanBeActivated() async throws {
        try await withBridge { bridge, mqtt, _, _ in
            try await bridge.activateScene(topic: "Thuis/scene/movie", payload: "on")
            #expect(
                await mqtt.messages(on: "Thuis/scene/movie") == [
                    .init(topic: "Thuis/scene/movie", payload: "on", retain: false)
                ])
            await #expect(throws: RequestFailure.self) {
                try await bridge.activateScene(topic: "Thuis/scene/movie", payload: "off")
            }
            await #expect(throws: RequestFailure.self) {
                try await bridge.activateScene(topic: "Thuis/device/bedroom/light/set", payload: "on")
            }
            #expect(await mqtt.messages(on: "Thuis/scene/movie").count == 1)
            #expect(await mqtt.messages(on: "Thuis/device/bedroom/light/set").isEmpty)
        }
    }

    @Test func aFrontEndGetsRequestResultsWithoutAResponseBeingPublished() async throws {
        try await withBridge { bridge, mqtt, _, _ in
            let before = await mqtt.published.count
            let result = await bridge.request(.devices)
            guard case .success(.array(let devices)) = result else {
                Issue.record("no inventory: \(result)")
                return
            }
            #expect(devices.first?["topic"] == "Thuis/device/bedroom/light")
            #expect(await mqtt.published.count == before)
            guard case .failure(let failure) = await bridge.request(.configList(node: 2)) else {
                Issue.record("config_list without a Z-Wave handler succeeded")
                return
            }
            #expect(failure.reason.contains("needs a Z-Wave adapter"))
        }
    }

    func set(_ payload: String) -> InboundMessage {
        InboundMessage(topic: "Thuis/device/bedroom/light/set", payload: Array(payload.utf8), retained: false)
    }
}
