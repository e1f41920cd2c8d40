public import Logging

/// The bridge: owns the device registry and the per-device command queue, and connects the two flows.
///
/// - MQTT → hardware: `receive(_:)` in `Bridge+Receive.swift`.
/// - Hardware → MQTT: `apply(_:)` in `Bridge+Publish.swift`.
///
/// `run()` executes queued commands (one in flight per device) until cancelled; `start()` subscribes
/// and publishes the initial retained states; `shutdown()` marks everything `offline`.
public actor Bridge {
    let identity: BridgeIdentity
    let mqtt: any MQTTPort
    let logger: Logger
    var registry: DeviceRegistry
    var queue = CoalescingQueue<DeviceAddress, CommandChannel, DeviceCommand>()
    var backends: [String: any DeviceBackend] = [:]
    var adapterOnline: [String: Bool] = [:]
    /// Adapters whose loss was reported (`adapter_lost`) and not yet followed by `adapter_recovered`.
    var adaptersLost: Set<String> = []
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
    /// Devices whose first command is ready to run; consumed by `run()`.
    let ready: AsyncStream<DeviceAddress>
    let readyContinuation: AsyncStream<DeviceAddress>.Continuation
    /// Counters for the benchmark and the logs.
    public internal(set) var stats = Stats()

    public struct Stats: Sendable {
        public var commandsReceived = 0
        public var commandsExecuted = 0
        public var commandsRejected = 0
        public var statesPublished = 0
    }

    public init(
        identity: BridgeIdentity, devices: [DeviceDescriptor], scenes: [ZWaveSceneConfig] = [],
        backends: [any DeviceBackend], requestHandlers: [any BridgeRequestHandler] = [],
        mqtt: any MQTTPort, logger: Logger
    ) {
        self.identity = identity
        self.registry = DeviceRegistry(devices)
        self.scenes = scenes
        self.mqtt = mqtt
        self.logger = logger
        self.requestHandlers = requestHandlers
        for backend in backends {
            self.backends[backend.adapter] = backend
            self.adapterOnline[backend.adapter] = false
        }
        (ready, readyContinuation) = AsyncStream.makeStream(of: DeviceAddress.self, bufferingPolicy: .unbounded)
    }

    /// Subscribes to the command topics and publishes the bridge's retained state: `online`, every
    /// device's availability (`offline` until its adapter reports it) and the inventory.
    public func start() async {
        for filter in identity.topics.subscriptions { await mqtt.subscribe(filter) }
        await mqtt.publish(topic: identity.topics.bridgeState, text: "online", retain: true)
        for device in registry.all { await publishAvailability(device) }
        await publishInventory()
    }

    /// Executes queued commands until the task is cancelled. Devices run concurrently; each device has
    /// at most one command in flight.
    public func run() async {
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
    }

    /// Publishes an event on `<prefix>/bridge/<bridge>/event`.
    public func publish(event: BridgeEvent) async {
        logger.info("event", metadata: ["event": "\(event)"])
        await mqtt.publish(topic: identity.topics.bridgeEvent, text: event.json.serialized, retain: false)
    }

    /// The current registry (for tests and the inventory).
    public var currentRegistry: DeviceRegistry { registry }
}

/// How `receive` hands the first command of a device that just became busy to `drain`.
enum DrainStart: Sendable {
    /// Not sent yet: `drain` executes it.
    case execute(DeviceCommand)
    /// Sent already (resolved as given) by the backend's fast path: `drain` waits for its confirmation.
    case confirm(DeviceCommand, CommandConfirmation)
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
    var topics: TopicScheme { TopicScheme(prefix: prefix, bridge: name) }
}
