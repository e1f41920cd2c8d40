public import Logging

/// The bridge: composes the command pipeline (``CommandPipeline``: the per-device queue and the backends), the state
/// publisher (``StatePublisher``: the registry, availability, what was published) and the peer tracker
/// (``PeerTracker``: the other bridges on the broker), each owning its state, and runs the two flows.
///
/// - MQTT → hardware: `receive(_:)` in `Bridge+Receive.swift` (requests: `Bridge+Requests.swift`).
/// - Hardware → MQTT: ``apply(_:)``: the state publisher decides, the bridge sends its ``Outbox``.
///
/// ``run(inbound:hardware:)`` is the whole bridge: it subscribes and publishes the initial
/// retained states, pumps both flows and executes queued commands (one in flight per device) until its task
/// is cancelled, then marks everything `offline`.
public actor Bridge {
    let identity: BridgeIdentity
    let mqtt: any MQTTPort
    let logger: Logger
    /// The command queue, the backends and the command counters.
    var pipeline: CommandPipeline
    /// The registry, the adapters' availability, and what was published.
    var states: StatePublisher
    /// The other bridges on the broker (its own lock: the inbound loop notes their retained states directly).
    nonisolated let peers: PeerTracker
    let requestHandlers: [any BridgeRequestHandler]
    /// Front ends beside the MQTT contract (Home Assistant discovery, the dashboard), told of every inventory change.
    let frontEnds: [any BridgeFrontEnd]
    /// Which process runs this bridge, published retained on `<prefix>/bridge/<bridge>/info` when it starts.
    let announcement: JSONValue?
    /// Devices whose first command is ready to run, with that command; consumed by ``runCommandQueue()``.
    let ready: AsyncStream<ReadyCommand>
    let readyContinuation: AsyncStream<ReadyCommand>.Continuation
    /// The events of each front end's request (``request(_:)``), which ``run(inbound:hardware:)`` applies beside the
    /// hardware's.
    let frontEndRequests:
        (
            stream: AsyncStream<AsyncStream<HardwareEvent>>,
            continuation: AsyncStream<AsyncStream<HardwareEvent>>.Continuation
        )

    /// Counters for the logs and the benchmark.
    public struct Stats: Sendable {
        public var commandsReceived = 0
        public var commandsExecuted = 0
        public var commandsRejected = 0
        public var statesPublished = 0
    }

    public var stats: Stats {
        Stats(
            commandsReceived: pipeline.counts.received, commandsExecuted: pipeline.counts.executed,
            commandsRejected: pipeline.counts.rejected, statesPublished: states.statesPublished)
    }

    /// - Parameter announcement: which process runs the bridge (host, pid...), published retained on
    ///   `<prefix>/bridge/<bridge>/info` before `online`.
    public init(
        identity: BridgeIdentity, devices: [DeviceDescriptor], scenes: [ZWaveSceneConfig] = [],
        backends: [any DeviceBackend], requestHandlers: [any BridgeRequestHandler] = [],
        frontEnds: [any BridgeFrontEnd] = [], announcement: JSONValue? = nil,
        lowBattery: Int = ZWaveSection.defaultLowBattery, buttons: [ZWaveButtonConfig] = [], mqtt: any MQTTPort,
        logger: Logger
    ) {
        self.identity = identity
        self.announcement = announcement
        let observers = frontEnds.filter(\.observesPublications)
        self.mqtt = observers.isEmpty ? mqtt : ObservedMQTTPort(base: mqtt, observers: observers)
        self.logger = logger
        self.requestHandlers = requestHandlers
        self.frontEnds = frontEnds
        self.pipeline = CommandPipeline(backends: backends)
        self.states = StatePublisher(
            identity: identity, devices: devices, scenes: scenes, adapters: Set(backends.map(\.adapter)),
            hasFrontEnds: !frontEnds.isEmpty, lowBattery: lowBattery, buttons: buttons,
            logger: logger)
        self.peers = PeerTracker(ownName: identity.name)
        (ready, readyContinuation) = AsyncStream.makeStream(of: ReadyCommand.self, bufferingPolicy: .unbounded)
        frontEndRequests = AsyncStream.makeStream(of: AsyncStream<HardwareEvent>.self, bufferingPolicy: .unbounded)
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
        var out = Outbox()
        states.start(into: &out)
        await send(out)
    }

    /// Runs the bridge until the task is cancelled, then marks every device `offline` (``shutdown()``).
    ///
    /// - MQTT → hardware: each message of `inbound` has its topic parsed once (``TopicScheme/route(_:)``);
    ///   bridge requests run concurrently (an `include` lasts until inclusion ends, and its `cancel` and the
    ///   device commands meanwhile must still arrive), everything else in arrival order.
    /// - Hardware → MQTT: the events of each stream of `hardware` are applied in order, and so are those of the front
    ///   ends' requests (``request(_:)``). An MQTT request's own events are applied by the task that answers it
    ///   (``RequestProgress``).
    public func run(
        inbound: some AsyncSequence<InboundMessage, Never> & Sendable, hardware: [AsyncStream<HardwareEvent>]
    ) async {
        await start()
        let topics = identity.topics
        await withDiscardingTaskGroup { group in
            group.addTask { await self.runCommandQueue() }
            group.addTask {
                await withDiscardingTaskGroup { requests in
                    for await message in inbound {
                        if let frontEnd = self.frontEnds.first(where: { $0.owns(message.topic) }) {
                            await frontEnd.receive(message)
                            continue
                        }
                        let topic = topics.route(message.topic)
                        if self.peers.note(topic, payload: message.payload) { continue }
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
            let frontEndRequests = frontEndRequests.stream
            group.addTask {
                await withDiscardingTaskGroup { requests in
                    for await stream in frontEndRequests {
                        requests.addTask { for await event in stream { await self.apply(event) } }
                    }
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
            for await first in ready {
                group.addTask { await self.drain(first) }
            }
        }
    }

    /// Marks every device `offline` (retained), for a clean stop. The bridge's own `offline` is the MQTT
    /// connection's last message (acknowledged, after these), sent by its owner.
    public func shutdown() async {
        for device in states.registry.all {
            await mqtt.publish(
                topic: identity.topics.device(device.address).availability, text: "offline", retain: true)
        }
        readyContinuation.finish()
    }

    /// Publishes an event on `<prefix>/bridge/<bridge>/event`.
    public func publish(event: BridgeEvent) async {
        logger.info("event", metadata: ["event": "\(event)"])
        await mqtt.publish(topic: identity.topics.bridgeEvent, text: event.json.serialized, retain: false)
    }

    /// Sends what the state publisher decided, in order.
    func send(_ out: Outbox) async {
        for item in out.items {
            switch item {
            case .message(let topic, let payload, let retain):
                await mqtt.publish(topic: topic, payload: payload, retain: retain)
            case .event(let event):
                await publish(event: event)
            case .inventory:
                // The latest inventory, not this outbox's: another may have been decided since.
                if let text = states.lastInventory {
                    await mqtt.publish(topic: identity.topics.bridgeDevices, text: text, retain: true)
                }
            case .frontEndInventory:
                for frontEnd in frontEnds {
                    if let inventory = states.frontEndInventory { await frontEnd.inventoryChanged(inventory) }
                }
            }
        }
    }

    /// Applies one hardware event and publishes what it changed.
    public func apply(_ event: HardwareEvent) async {
        var out = Outbox()
        states.apply(event, into: &out)
        await send(out)
    }

    /// Publishes again every device's availability and every state it has reported, and the bridge's own
    /// `online` (for a consumer that lost them, such as a restarted Home Assistant; retained anyway).
    public func republishStates() async {
        var out = Outbox()
        states.republish(into: &out)
        await send(out)
    }

    /// A measurement as the bridge publishes it: `53.6`, `2.50` (the device's precision).
    public static func decimal(_ measurement: DeviceState.Measurement) -> String {
        StatePublisher.decimal(measurement)
    }

    /// The current registry (for tests and the inventory).
    public var currentRegistry: DeviceRegistry { states.registry }

    /// Whether each configured adapter is online (the Z-Wave stick ready, the CEC adapter connected).
    public var adapters: [Adapter: Bool] { states.adapterOnline }

    /// Publishes a mapped scene (`[[zwave.scene]]`) as if its device had sent it: the configured topic and payload,
    /// never retained. For a front end's scene button.
    /// - Throws: ``RequestFailure`` when no `[[zwave.scene]]` maps to this topic and payload.
    public func activateScene(topic: String, payload: String) async throws(RequestFailure) {
        guard states.scenes.contains(where: { $0.topic == topic && $0.payload == payload }) else {
            throw RequestFailure("no [[zwave.scene]] publishes \"\(payload.prefix(64))\" on \"\(topic.prefix(200))\"")
        }
        await mqtt.publish(topic: topic, text: payload, retain: false)
    }
}

/// A device's first command after it was idle: `Bridge.drain` runs it, then the device's queue.
struct ReadyCommand: Sendable {
    let address: DeviceAddress
    let command: DeviceCommand
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
