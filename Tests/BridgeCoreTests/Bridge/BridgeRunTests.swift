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

    /// A request's events go through its own sink, which the task answering it applies: on the wire the response
    /// follows them, while the bridge's event loop runs beside it.
    @Test func aResponseFollowsTheEventsItsRequestEmitted() async throws {
        let mqtt = FakeMQTTPort()
        let handler = ReportingHandler()
        let bridge = Bridge(
            identity: BridgeIdentity(name: "living"), devices: [light], backends: [FakeDeviceBackend(adapter: .zwave)],
            requestHandlers: [handler], mqtt: mqtt, logger: Logger(label: "test"))
        let (inbound, toBridge) = AsyncStream.makeStream(of: InboundMessage.self)
        let (hardware, _) = AsyncStream.makeStream(of: HardwareEvent.self)
        let running = Task { await bridge.run(inbound: inbound, hardware: [hardware]) }

        toBridge.yield(Self.heal)
        await mqtt.waitFor("Thuis/bridge/living/response/heal")

        let order = await mqtt.published.map(\.topic).filter { $0.hasPrefix("Thuis/bridge/living/") }
        #expect(
            order.suffix(3) == [
                "Thuis/bridge/living/event", "Thuis/bridge/living/event", "Thuis/bridge/living/response/heal",
            ])
        #expect(await mqtt.events(on: "Thuis/bridge/living/event").suffix(2).map { $0["frame"] } == ["10:04", "10:36"])
        running.cancel()
        await running.value
    }

    /// No event loop runs (a request before `run`, or behind a stalled backend stream): the request's events and
    /// its response are out, in that order, by the time the request has been handled. With a marker in a backend
    /// stream nobody applies, the response waited 10 s and went out without its events.
    @Test func aResponseFollowsItsEventsWithoutAnyEventLoopRunning() async throws {
        let mqtt = FakeMQTTPort()
        let bridge = Bridge(
            identity: BridgeIdentity(name: "living"), devices: [light], backends: [FakeDeviceBackend(adapter: .zwave)],
            requestHandlers: [ReportingHandler()], mqtt: mqtt, logger: Logger(label: "test"))

        await bridge.receive(Self.heal)

        let order = await mqtt.published.map(\.topic).filter { $0.hasPrefix("Thuis/bridge/living/") }
        #expect(
            order == ["Thuis/bridge/living/event", "Thuis/bridge/living/event", "Thuis/bridge/living/response/heal"])
        #expect(await mqtt.events(on: "Thuis/bridge/living/event").map { $0["frame"] } == ["10:04", "10:36"])
    }

    /// A subscriber that does not keep up (here the publication of events waits until the test opens it) holds
    /// back only the response whose events it holds: the handler reported them without waiting, and the bridge's
    /// event loop goes on publishing the hardware's states meanwhile.
    @Test func aSlowSubscriberHoldsNeitherTheHandlerNorTheEventLoop() async throws {
        let fake = FakeMQTTPort()
        let mqtt = GatedMQTTPort(base: fake, gated: "Thuis/bridge/living/event")
        let handler = ReportingHandler()
        let bridge = Bridge(
            identity: BridgeIdentity(name: "living"), devices: [light], backends: [FakeDeviceBackend(adapter: .zwave)],
            requestHandlers: [handler], mqtt: mqtt, logger: Logger(label: "test"))
        let (inbound, toBridge) = AsyncStream.makeStream(of: InboundMessage.self)
        let (hardware, fromHardware) = AsyncStream.makeStream(of: HardwareEvent.self)
        let running = Task { await bridge.run(inbound: inbound, hardware: [hardware]) }

        toBridge.yield(Self.heal)
        let returned = try await finishing(within: .seconds(10)) { await handler.returned() }
        #expect(returned == true, "the handler waited for its events to be published")
        fromHardware.yield(.adapterAvailability(adapter: .zwave, online: true, reason: "ready"))
        fromHardware.yield(.update(light.source, .level(40)))
        await fake.waitFor("Thuis/device/bedroom/light", payload: "40")
        #expect(await fake.messages(on: "Thuis/bridge/living/response/heal").isEmpty, "the response overtook")

        await mqtt.open()
        await fake.waitFor("Thuis/bridge/living/response/heal")
        let order = await fake.published.map(\.topic).filter { $0.hasPrefix("Thuis/bridge/living/") }
        #expect(
            order.suffix(3) == [
                "Thuis/bridge/living/event", "Thuis/bridge/living/event", "Thuis/bridge/living/response/heal",
            ])
        running.cancel()
        await running.value
    }

    /// A front end's request (`/metrics`' `network_stats`) is answered without waiting for anything: here the
    /// publication of its events is stuck, and the result comes back anyway; the events go out once it is not.
    @Test func aFrontEndsRequestDoesNotWaitForItsEvents() async throws {
        let fake = FakeMQTTPort()
        let mqtt = GatedMQTTPort(base: fake, gated: "Thuis/bridge/living/event")
        let bridge = Bridge(
            identity: BridgeIdentity(name: "living"), devices: [light], backends: [FakeDeviceBackend(adapter: .zwave)],
            requestHandlers: [ReportingHandler()], mqtt: mqtt, logger: Logger(label: "test"))
        let (inbound, _) = AsyncStream.makeStream(of: InboundMessage.self)
        let (hardware, fromHardware) = AsyncStream.makeStream(of: HardwareEvent.self)
        let running = Task { await bridge.run(inbound: inbound, hardware: [hardware]) }
        fromHardware.yield(.adapterAvailability(adapter: .zwave, online: true, reason: "ready"))
        await fake.waitFor("Thuis/bridge/living/state", payload: "online")

        let answer = try await finishing(within: .seconds(10)) { await bridge.request(.networkStats) }
        let result = try #require(answer, "the front end's request waited for its events")
        #expect(try result.get() == .object([("nodes", .array([]))]))
        #expect(await fake.messages(on: "Thuis/bridge/living/event").isEmpty)
        await mqtt.open()
        await fake.waitFor(
            "Thuis/bridge/living/event", payload: BridgeEvent.cecReceived(frame: "10:36").json.serialized)
        running.cancel()
        await running.value
    }

    /// A request's events and the hardware's are sent at once. When the request's outbox, decided first, finishes
    /// last (its first message waits for a slow subscriber), the retained inventory is still the latest decided.
    @Test func theRetainedInventoryIsTheLatestWhenTwoOutboxesAreSentAtOnce() async throws {
        let fake = FakeMQTTPort()
        let mqtt = GatedMQTTPort(base: fake, gated: "Thuis/device/bedroom/light", open: true)
        let bridge = Bridge(
            identity: BridgeIdentity(name: "living"), devices: [light], backends: [FakeDeviceBackend(adapter: .zwave)],
            requestHandlers: [ReportingHandler(reporting: [.removed(light.source)])], mqtt: mqtt,
            logger: Logger(label: "test"))
        let (inbound, toBridge) = AsyncStream.makeStream(of: InboundMessage.self)
        let (hardware, fromHardware) = AsyncStream.makeStream(of: HardwareEvent.self)
        let running = Task { await bridge.run(inbound: inbound, hardware: [hardware]) }
        await fake.waitFor("Thuis/bridge/living/devices")
        let published = await fake.published.count
        await mqtt.close()

        toBridge.yield(Self.heal)
        await mqtt.holding()  // the light's removal was decided, and its outbox waits at the first cleared topic
        let node9 = DeviceDescriptor(
            address: DeviceAddress(room: "unassigned", name: "node9"), kind: .binarySwitch,
            source: .zwave(node: 9, instance: nil), configured: false)
        fromHardware.yield(.discovered(node9))
        await fake.waitFor("Thuis/bridge/living/devices", after: published)  // the hardware's, with node9
        await mqtt.open()
        await fake.waitFor("Thuis/bridge/living/response/heal")

        let inventories = await fake.messages(on: "Thuis/bridge/living/devices").dropFirst()
        #expect(inventories.count == 2)
        #expect(inventories.last?.payload.contains("node9") == true, "a stale inventory stayed: \(inventories)")
        #expect(inventories.last?.payload.contains("bedroom") == false, "a stale inventory stayed: \(inventories)")
        running.cancel()
        await running.value
    }

    static let heal = InboundMessage(
        topic: "Thuis/bridge/living/request/heal", payload: Array(#"{"transaction":"1"}"#.utf8), retained: false)

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

/// Serves `heal` and `network_stats`: reports its events (by default two `cec_received`) through the request's sink
/// and returns at once.
private actor ReportingHandler: BridgeRequestHandler {
    nonisolated let verbs: Set<BridgeRequest.Verb> = [.heal, .networkStats]
    let reporting: [HardwareEvent]
    private var hasReturned = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(reporting: [HardwareEvent] = [.event(.cecReceived(frame: "10:04")), .event(.cecReceived(frame: "10:36"))]) {
        self.reporting = reporting
    }

    func handle(_ request: BridgeRequest, progress: RequestProgress) async throws(RequestFailure) -> RequestResult {
        for event in reporting { progress.report(event) }
        hasReturned = true
        for waiter in waiting { waiter.resume() }
        waiting.removeAll()
        return request == .networkStats ? .nodeStatistics([]) : .healStarted(node: nil)
    }

    /// Whether a request has returned: at once if one has, else once one does.
    func returned() async -> Bool {
        if !hasReturned { await withCheckedContinuation { waiting.append($0) } }
        return hasReturned
    }
}

/// An MQTT port whose publications on topics that start with `gated` wait until ``open()``: a subscriber that does
/// not keep up.
private actor GatedMQTTPort: MQTTPort {
    let base: FakeMQTTPort
    let gated: String
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var watchers: [CheckedContinuation<Void, Never>] = []

    init(base: FakeMQTTPort, gated: String, open: Bool = false) {
        self.base = base
        self.gated = gated
        isOpen = open
    }

    func publish(topic: String, payload: [UInt8], retain: Bool) async {
        if topic.hasPrefix(gated), !isOpen {
            await withCheckedContinuation {
                waiting.append($0)
                for watcher in watchers { watcher.resume() }
                watchers.removeAll()
            }
        }
        await base.publish(topic: topic, payload: payload, retain: retain)
    }

    func subscribe(_ filter: String) async { await base.subscribe(filter) }

    func close() { isOpen = false }

    /// Returns once a publication waits.
    func holding() async {
        if waiting.isEmpty { await withCheckedContinuation { watchers.append($0) } }
    }

    func open() {
        isOpen = true
        for waiter in waiting { waiter.resume() }
        waiting.removeAll()
    }
}
