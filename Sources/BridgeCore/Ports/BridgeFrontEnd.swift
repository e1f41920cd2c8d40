/// A front end beside the bridge's own MQTT contract (Home Assistant discovery): it sees the inventory
/// whenever it changes, may own MQTT topics of its own on the bridge's connection, and runs as long as the
/// bridge. It goes through the bridge for everything that reaches a device.
public protocol BridgeFrontEnd: Sendable {
    /// Topic filters it needs on the bridge's MQTT connection; subscribed when the bridge starts.
    var subscriptions: [String] { get }
    /// Whether an inbound `topic` is one of its own: such messages go to ``receive(_:)``, not to the bridge's
    /// topic parser.
    func owns(_ topic: String) -> Bool
    /// A message on one of its own topics.
    func receive(_ message: InboundMessage) async
    /// The inventory changed: a device appeared, left, was identified or renamed, or a fact about it changed.
    func inventoryChanged(_ inventory: BridgeInventory) async
    /// Runs until its task is cancelled; `bridge` is the bridge it serves (for example to republish states).
    func run(serving bridge: Bridge) async
    /// Whether it follows what the bridge publishes (``bridgePublished(topic:payload:retain:)``). False by default.
    var observesPublications: Bool { get }
    /// A message the bridge publishes, told just before it goes to MQTT, in publication order (a dashboard mirrors
    /// the MQTT contract from these). Called on the bridge's actor: it must return at once, never wait.
    func bridgePublished(topic: String, payload: [UInt8], retain: Bool)
    /// A device command the bridge sent to the hardware ended (confirmed or failed). Called on the bridge's actor:
    /// it must return at once.
    func commandFinished(_ report: CommandReport)
}

extension BridgeFrontEnd {
    public var observesPublications: Bool { false }
    public func bridgePublished(topic: String, payload: [UInt8], retain: Bool) {}
    public func commandFinished(_ report: CommandReport) {}
}

/// How one device command went: from handing it to the backend to the hardware's confirmation (or its failure).
public struct CommandReport: Sendable, Equatable {
    public let device: DeviceAddress
    public let adapter: Adapter
    /// The command as sent (`level 40`, `on`, `volume up`).
    public let command: DeviceCommand
    public let duration: Duration
    /// Why it failed; nil when the hardware took it.
    public let failure: String?

    public init(device: DeviceAddress, adapter: Adapter, command: DeviceCommand, duration: Duration, failure: String?) {
        self.device = device
        self.adapter = adapter
        self.command = command
        self.duration = duration
        self.failure = failure
    }
}

/// The bridge's MQTT port when front ends follow its publications: tells each of them every message, then publishes
/// it.
struct ObservedMQTTPort: MQTTPort {
    let base: any MQTTPort
    let observers: [any BridgeFrontEnd]

    func publish(topic: String, payload: [UInt8], retain: Bool) async {
        for observer in observers { observer.bridgePublished(topic: topic, payload: payload, retain: retain) }
        await base.publish(topic: topic, payload: payload, retain: retain)
    }

    func publish(topic: String, payload: [UInt8], retain: Bool, keep: Bool) async {
        for observer in observers { observer.bridgePublished(topic: topic, payload: payload, retain: retain) }
        await base.publish(topic: topic, payload: payload, retain: retain, keep: keep)
    }

    func subscribe(_ filter: String) async {
        await base.subscribe(filter)
    }

    func subscribe(_ filter: String, options: MQTTSubscriptionOptions) async {
        await base.subscribe(filter, options: options)
    }

    func connections() async -> AsyncStream<Void> {
        await base.connections()
    }
}

/// What a front end sees of the bridge: every device with the facts the hardware reported about it, the
/// networks' ids, and which adapters have reported their whole network.
public struct BridgeInventory: Sendable, Equatable {
    /// One device and the facts its node or CEC device reported (`manufacturer`, `product`...).
    public struct Device: Sendable, Equatable {
        public let descriptor: DeviceDescriptor
        public let facts: [String: String]
        public init(descriptor: DeviceDescriptor, facts: [String: String] = [:]) {
            self.descriptor = descriptor
            self.facts = facts
        }
    }

    /// The bridge's identity (its instance name and topic prefix).
    public let identity: BridgeIdentity
    /// Every device, sorted by address.
    public let devices: [Device]
    /// Each adapter's network id, once known: the Z-Wave home id (`c0ffee01`).
    public let networks: [Adapter: String]
    /// Adapters whose every device is in `devices` (CEC from the start: its devices come from the
    /// configuration; Z-Wave once the library's start-up queries ended). A configured adapter not in here
    /// may still add devices.
    public let complete: Set<Adapter>

    public init(
        identity: BridgeIdentity, devices: [Device], networks: [Adapter: String] = [:], complete: Set<Adapter> = []
    ) {
        self.identity = identity
        self.devices = devices
        self.networks = networks
        self.complete = complete
    }
}
