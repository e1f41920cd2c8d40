public import Logging

/// The bridge: owns the device registry and the per-device command queue, and runs the two flows.
///
/// - MQTT → hardware: `receive(_:)` in `Bridge+Receive.swift` (requests: `Bridge+Requests.swift`).
/// - Hardware → MQTT: `apply(_:)` in `Bridge+Publish.swift`.
///
/// ``run(inbound:hardware:inboundExecutor:)`` is the whole bridge: it subscribes and publishes the initial
/// retained states, pumps both flows and executes queued commands (one in flight per device) until its task
/// is cancelled, then marks everything `offline`.
public actor Bridge {
    let identity: BridgeIdentity
    let mqtt: any MQTTPort
    let logger: Logger
    var registry: DeviceRegistry
    var queue = CoalescingQueue<DeviceAddress, CommandChannel, DeviceCommand>()
    var backends: [Adapter: any DeviceBackend] = [:]
    var adapterOnline: [Adapter: Bool] = [:]
    /// Adapters whose loss was reported (`adapter_lost`) and not yet followed by `adapter_recovered`.
    var adaptersLost: Set<Adapter> = []
    /// The first command of a device that just became busy, handed from `receive` to `drain`.
    var pendingFirst: [DeviceAddress: DrainStart] = [:]
    /// Retained state topics published at least once by this process.
    var published: Set<String> = []
    /// Extra inventory fields per device (manufacturer, product, interview stage).
    var details: [DeviceSource: [(String, JSONValue)]] = [:]
    /// The inventory as last published.
    var lastInventory: String?
    let scenes: [ZWaveSceneConfig]
    let requestHandlers: [any BridgeRequestHandler]
    /// Front ends beside the MQTT contract (Home Assistant discovery), told of every inventory change.
    let frontEnds: [any BridgeFrontEnd]
    /// Network ids by adapter (the Z-Wave home id), and the adapters that reported their whole network.
    var networks: [Adapter: String] = [:]
    var networksQueried: Set<Adapter> = []
    /// The inventory as the front ends last saw it.
    var frontEndInventory: BridgeInventory?
    /// The other bridges on the broker: their devices (from retained `availability`) and which bridges are online
    /// (retained `state`), so that the bridge answers only for its own devices (`Bridge+Peers.swift`).
    var peerDevices: Set<DeviceAddress> = []
    var onlineBridges: Set<String> = []
    /// Which process runs this bridge, published retained on `<prefix>/bridge/<bridge>/info` when it starts.
    let announcement: JSONValue?
    /// Devices whose first command is ready to run; consumed by `run()`.
    let ready: AsyncStream<DeviceAddress>
    let readyContinuation: AsyncStream<DeviceAddress>.Continuation
    /// An element each time every adapter has settled (``noteIfSettled()``): the start-up is over, so the daemon may
    /// give back what only the start-up needed. Single consumer.
    public nonisolated let settled: AsyncStream<Void>
    let settledContinuation: AsyncStream<Void>.Continuation
    /// Whether every adapter has settled now.
    public internal(set) var isSettled = false
    /// Counters for the benchmark and the logs.
    public internal(set) var stats = Stats()

    public struct Stats: Sendable {
        public var commandsReceived = 0
        public var commandsExecuted = 0
        public var commandsRejected = 0
        public var statesPublished = 0
    }

    /// - Parameter announcement: which process runs the bridge (host, pid...), published retained on
    ///   `<prefix>/bridge/<bridge>/info` before `online`.
    public init(
        identity: BridgeIdentity, devices: [DeviceDescriptor], scenes: [ZWaveSceneConfig] = [],
        backends: [any DeviceBackend], requestHandlers: [any BridgeRequestHandler] = [],
        frontEnds: [any BridgeFrontEnd] = [], announcement: JSONValue? = nil, mqtt: any MQTTPort, logger: Logger
    ) {
        self.identity = identity
        self.announcement = announcement
        self.registry = DeviceRegistry(devices)
        self.scenes = scenes
        let observers = frontEnds.filter(\.observesPublications)
        self.mqtt = observers.isEmpty ? mqtt : ObservedMQTTPort(base: mqtt, observers: observers)
        self.logger = logger
        self.requestHandlers = requestHandlers
        self.frontEnds = frontEnds
        for backend in backends {
            self.backends[backend.adapter] = backend
            self.adapterOnline[backend.adapter] = false
        }
        (ready, readyContinuation) = AsyncStream.makeStream(of: DeviceAddress.self, bufferingPolicy: .unbounded)
        (settled, settledContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Subscribes to the other bridges' states and devices (first, so that they are known before any command
    /// arrives), to the command topics, and publishes the bridge's retained state: its `info`, `online`, every
    /// device's availability (`offline` until its adapter reports it) and the inventory.
    public func start() async {
        for filter in identity.topics.peerSubscriptions + frontEnds.flatMap(\.subscriptions) {
            await mqtt.subscribe(filter)
        }
        for filter in identity.topics.subscriptions {
            await mqtt.subscribe(filter, options: .retainAsPublished)
        }
        if let announcement {
            await mqtt.publish(topic: identity.topics.bridgeInfo, text: announcement.serialized, retain: true)
        }
        await mqtt.publish(topic: identity.topics.bridgeState, text: "online", retain: true)
        for device in registry.all { await publishAvailability(device) }
        await publishInventory()
        noteIfSettled()  // a bridge without adapters has nothing to wait for
    }

    /// Runs the bridge until the task is cancelled, then marks every device `offline` (``shutdown()``).
    ///
    /// - MQTT → hardware: each message of `inbound` has its topic parsed once (``TopicScheme/route(_:)``);
    ///   bridge requests run concurrently (an `include` lasts until inclusion ends, and its `cancel` and the
    ///   device commands meanwhile must still arrive), everything else in arrival order. `inboundExecutor`,
    ///   when given, runs this loop (the MQTT client's network thread: one thread hand-off fewer).
    /// - Hardware → MQTT: the events of each stream of `hardware` are applied in order.
    public func run(
        inbound: some AsyncSequence<InboundMessage, Never> & Sendable, hardware: [AsyncStream<HardwareEvent>],
        inboundExecutor: (any TaskExecutor)? = nil
    ) async {
        await start()
        let topics = identity.topics
        await withDiscardingTaskGroup { group in
            group.addTask { await self.runCommandQueue() }
            group.addTask(executorPreference: inboundExecutor) {
                await withDiscardingTaskGroup { requests in
                    for await message in inbound {
                        if let frontEnd = self.frontEnds.first(where: { $0.owns(message.topic) }) {
                            await frontEnd.receive(message)
                            continue
                        }
                        let topic = topics.route(message.topic)
                        if case .success(.bridgeRequest) = topic {
                            requests.addTask { await self.receive(message, topic: topic) }
                        } else {
                            await self.receive(message, topic: topic)
                        }
                    }
                }
            }
            for stream in hardware {
                group.addTask {
                    for await event in stream { await self.apply(event) }
                }
            }
            for frontEnd in frontEnds {
                group.addTask { await frontEnd.run(serving: self) }
            }
        }
        logger.info("stopping: marking devices and the bridge offline")
        await shutdown()
    }

    /// Executes queued commands until the task is cancelled. Devices run concurrently; each device has
    /// at most one command in flight.
    public func runCommandQueue() async {
        await withDiscardingTaskGroup { group in
            for await address in ready {
                group.addTask { await self.drain(address) }
            }
        }
    }

    /// Marks every device `offline` (retained), for a clean stop. The bridge's own `offline` is the MQTT
    /// connection's last message (acknowledged, after these), sent by its owner.
    public func shutdown() async {
        for device in registry.all {
            await mqtt.publish(
                topic: identity.topics.device(device.address).availability, text: "offline", retain: true)
        }
        readyContinuation.finish()
        settledContinuation.finish()
    }

    /// Publishes an event on `<prefix>/bridge/<bridge>/event`.
    public func publish(event: BridgeEvent) async {
        logger.info("event", metadata: ["event": "\(event)"])
        await mqtt.publish(topic: identity.topics.bridgeEvent, text: event.json.serialized, retain: false)
    }

    /// The current registry (for tests and the inventory).
    public var currentRegistry: DeviceRegistry { registry }

    /// Whether each configured adapter is online (the Z-Wave stick ready, the CEC adapter connected).
    public var adapters: [Adapter: Bool] { adapterOnline }

    /// Publishes a mapped scene (`[[zwave.scene]]`) as if its device had sent it: the configured topic and payload,
    /// never retained. For a front end's scene button.
    /// - Throws: ``RequestFailure`` when no `[[zwave.scene]]` maps to this topic and payload.
    public func activateScene(topic: String, payload: String) async throws(RequestFailure) {
        guard scenes.contains(where: { $0.topic == topic && $0.payload == payload }) else {
            throw RequestFailure("no [[zwave.scene]] publishes \"\(payload.prefix(64))\" on \"\(topic.prefix(200))\"")
        }
        await mqtt.publish(topic: topic, text: payload, retain: false)
    }
}

/// How `receive` hands the first command of a device that just became busy to `drain`.
enum DrainStart: Sendable {
    /// Not sent yet: `drain` executes it.
    case execute(DeviceCommand)
    /// Sent already (resolved as given, at `since`) by the backend's fast path: `drain` waits for its confirmation.
    case confirm(DeviceCommand, CommandConfirmation, since: ContinuousClock.Instant)
    /// Nothing left to do (its failure is reported, or the device is gone).
    case finished
}

/// Which bridge this is: its instance name and topic prefix.
public struct BridgeIdentity: Sendable, Hashable {
    public let name: String
    public let prefix: String
    public init(name: String, prefix: String = "Thuis") {
        self.name = name
        self.prefix = prefix
    }
    /// Every topic of this bridge instance.
    public var topics: TopicScheme { TopicScheme(prefix: prefix, bridge: name) }
}
