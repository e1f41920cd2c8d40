import BridgeCore
import Logging
import TestSupport
import Testing

/// `Bridge.run` is the whole bridge: both flows, the command queue, and the offline marks when it stops.
@Suite struct BridgeRunTests {
    let light = DeviceDescriptor(
        address: DeviceAddress(room: "bedroom", name: "light"), kind: .dimmer, source: .zwave(node: 2, instance: nil))

    @Test func bothFlowsRunUntilCancelledAndThenEverythingIsOffline() async throws {
        let mqtt = FakeMQTTPort()
        let zwave = FakeDeviceBackend(adapter: .zwave)
        let requests = FakeRequestHandler(verbs: [.include])
        let bridge = Bridge(
            identity: BridgeIdentity(name: "living"), devices: [light], backends: [zwave], requestHandlers: [requests],
            mqtt: mqtt, logger: Logger(label: "test"))
        let (inbound, toBridge) = AsyncStream.makeStream(of: InboundMessage.self)
        let (hardware, fromHardware) = AsyncStream.makeStream(of: HardwareEvent.self)
        let running = Task { await bridge.run(inbound: inbound, hardware: [hardware]) }

        // Hardware → MQTT.
        fromHardware.yield(.adapterAvailability(adapter: .zwave, online: true, reason: "ready"))
        fromHardware.yield(.update(light.source, .level(40)))
        await mqtt.waitFor("Thuis/device/bedroom/light", payload: "40")
        #expect(await mqtt.subscriptions.contains("Thuis/device/+/+/set"))

        // A request that lasts (an inclusion waiting for a device) does not hold up device commands.
        await requests.hold()
        toBridge.yield(
            InboundMessage(
                topic: "Thuis/bridge/living/request/include", payload: Array(#"{"transaction":"1"}"#.utf8),
                retained: false))
        toBridge.yield(
            InboundMessage(topic: "Thuis/device/bedroom/light/set", payload: Array("10".utf8), retained: false))
        await zwave.waitForCommands(1)
        #expect(await zwave.commands == [.level(10)])
        await requests.releaseAll()
        await mqtt.waitFor("Thuis/bridge/living/response/include")

        // A wrong topic is parsed once and rejected with the parser's reason.
        toBridge.yield(InboundMessage(topic: "Thuis/device/bedroom/light/colour/set", payload: [], retained: false))
        await mqtt.waitFor("Thuis/bridge/living/event")
        let rejected = await mqtt.events(on: "Thuis/bridge/living/event").last
        #expect(rejected?["type"] == "command_rejected")

        running.cancel()
        await running.value
        #expect(await mqtt.retained["Thuis/device/bedroom/light/availability"] == "offline")
    }

    /// The request's events go through the hardware stream, which a task of its own applies; the handler here holds
    /// them back until the bridge asks for its marker (or, without that step, until the response is out), so the
    /// response can only follow its events when the bridge waits for the marker before it answers.
    @Test func aResponseFollowsTheEventsItsRequestEmitted() async throws {
        let mqtt = FakeMQTTPort()
        let (hardware, fromHardware) = AsyncStream.makeStream(of: HardwareEvent.self)
        let handler = HoldingEventsHandler(stream: fromHardware)
        let bridge = Bridge(
            identity: BridgeIdentity(name: "living"), devices: [light], backends: [FakeDeviceBackend(adapter: .zwave)],
            requestHandlers: [handler], mqtt: mqtt, logger: Logger(label: "test"))
        let (inbound, toBridge) = AsyncStream.makeStream(of: InboundMessage.self)
        let running = Task { await bridge.run(inbound: inbound, hardware: [hardware]) }

        toBridge.yield(
            InboundMessage(
                topic: "Thuis/bridge/living/request/heal", payload: Array(#"{"transaction":"1"}"#.utf8),
                retained: false))
        await mqtt.waitFor("Thuis/bridge/living/response/heal")
        await handler.release()
        await mqtt.waitFor(
            "Thuis/bridge/living/event", payload: BridgeEvent.cecReceived(frame: "10:36").json.serialized)

        let order = await mqtt.published.map(\.topic).filter { $0.hasPrefix("Thuis/bridge/living/") }
        #expect(
            order.suffix(3) == [
                "Thuis/bridge/living/event", "Thuis/bridge/living/event", "Thuis/bridge/living/response/heal",
            ])
        #expect(await mqtt.events(on: "Thuis/bridge/living/event").suffix(2).map { $0["frame"] } == ["10:04", "10:36"])
        running.cancel()
        await running.value
    }

    /// A front end's request (`/metrics`' `network_stats`) is answered without waiting for the handler's marker:
    /// here the handler's events never get applied (a stalled event pipeline, 1,000 events queued behind nothing),
    /// so a wait for the marker would last the whole `eventsTimeout` (10 s), past Prometheus' scrape timeout.
    @Test func aFrontEndsRequestDoesNotWaitForTheEventBacklog() async throws {
        let mqtt = FakeMQTTPort()
        let (hardware, fromHardware) = AsyncStream.makeStream(of: HardwareEvent.self)
        let handler = StalledEventsHandler()
        let bridge = Bridge(
            identity: BridgeIdentity(name: "living"), devices: [light], backends: [FakeDeviceBackend(adapter: .zwave)],
            requestHandlers: [handler], mqtt: mqtt, logger: Logger(label: "test"))
        let (inbound, _) = AsyncStream.makeStream(of: InboundMessage.self)
        let running = Task { await bridge.run(inbound: inbound, hardware: [hardware]) }
        fromHardware.yield(.adapterAvailability(adapter: .zwave, online: true, reason: "ready"))
        await mqtt.waitFor("Thuis/bridge/living/state", payload: "online")

        let answer = try await finishing(within: .seconds(3)) { await bridge.request(.networkStats) }
        let result = try #require(answer, "the scrape's request waited for the event backlog")
        #expect(try result.get() == .object([("nodes", .array([]))]))
        #expect(await handler.markers == 0, "the front end's request asked for a marker")
        running.cancel()
        await running.value
    }

    @Test func aCommandStillQueuedWhenTheBridgeStopsFailsWithBridgeStoppingAndIsNotSent() async throws {
        let mqtt = FakeMQTTPort()
        let zwave = FakeDeviceBackend(adapter: .zwave)
        let bridge = Bridge(
            identity: BridgeIdentity(name: "living"), devices: [light], backends: [zwave], mqtt: mqtt,
            logger: Logger(label: "test"))
        let (inbound, toBridge) = AsyncStream.makeStream(of: InboundMessage.self)
        let (hardware, fromHardware) = AsyncStream.makeStream(of: HardwareEvent.self)
        let running = Task { await bridge.run(inbound: inbound, hardware: [hardware]) }
        fromHardware.yield(.adapterAvailability(adapter: .zwave, online: true, reason: "ready"))
        await mqtt.waitFor("Thuis/device/bedroom/light/availability", payload: "online")

        // The first command is in the backend; the second waits in the device's queue behind it.
        await zwave.hold()
        for level in ["10", "20"] {
            toBridge.yield(
                InboundMessage(topic: "Thuis/device/bedroom/light/set", payload: Array(level.utf8), retained: false))
        }
        await zwave.waitForCommands(1)
        // Messages are handled in order: once a later one is rejected, the second command is queued.
        toBridge.yield(InboundMessage(topic: "Thuis/device/bedroom/light/colour/set", payload: [], retained: false))
        await mqtt.waitFor("Thuis/bridge/living/event")
        running.cancel()
        await zwave.releaseAll()
        await running.value

        #expect(await zwave.commands == [.level(10)], "the queued command was sent while the bridge stopped")
        let failed = await mqtt.events(on: "Thuis/bridge/living/event").filter { $0["type"] == "command_failed" }
        #expect(failed.count == 1)
        #expect(failed.first?["command"] == "level 20")
        #expect(failed.first?["reason"] == "bridge stopping")
        #expect(await mqtt.retained["Thuis/device/bedroom/light/availability"] == "offline")
    }
}

/// A request handler whose events reach the bridge's hardware stream only once released: by the bridge's
/// ``mark(_:)`` (its events and the marker then go in order) or by the test.
private actor HoldingEventsHandler: BridgeRequestHandler {
    nonisolated let verbs: Set<BridgeRequest.Verb> = [.heal]
    private let stream: AsyncStream<HardwareEvent>.Continuation
    private var held: [HardwareEvent] = []
    private var released = false

    init(stream: AsyncStream<HardwareEvent>.Continuation) { self.stream = stream }

    func handle(_ request: BridgeRequest) async throws(RequestFailure) -> RequestResult {
        emit(.event(.cecReceived(frame: "10:04")))
        emit(.event(.cecReceived(frame: "10:36")))
        return .healStarted(node: nil)
    }

    func mark(_ marker: EventMarker) {
        emit(.marker(marker))
        release()
    }

    func release() {
        released = true
        for event in held { stream.yield(event) }
        held.removeAll()
    }

    private func emit(_ event: HardwareEvent) {
        if released { stream.yield(event) } else { held.append(event) }
    }
}

/// A `network_stats` handler whose events never get applied: 1,000 of them wait in a queue nobody drains, and the
/// marker the bridge asks for goes behind them, so it is never reached.
private actor StalledEventsHandler: BridgeRequestHandler {
    nonisolated let verbs: Set<BridgeRequest.Verb> = [.networkStats]
    private var backlog: [HardwareEvent] = Array(
        repeating: .event(.cecReceived(frame: "10:04")), count: 1_000)
    private(set) var markers = 0

    func handle(_ request: BridgeRequest) async throws(RequestFailure) -> RequestResult {
        .nodeStatistics([])
    }

    func mark(_ marker: EventMarker) {
        markers += 1
        backlog.append(.marker(marker))
    }
}
