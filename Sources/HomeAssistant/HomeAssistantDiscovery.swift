public import BridgeCore
public import Logging

/// Home Assistant MQTT discovery for one bridge: keeps Home Assistant's view equal to the bridge's inventory.
///
/// - Every inventory change is mapped (``DiscoveryMapping``) and diffed against what was published: new and
///   changed configs are published retained (QoS 1), configs no longer produced are cleared (empty retained),
///   so an excluded node or a device removed from devices.toml leaves Home Assistant.
/// - Configs this bridge published earlier (they come back retained on its own namespaces) and no longer
///   produces are cleared, once the bridge knows every device of that namespace (CEC and the bridge at once,
///   Z-Wave when the network's start-up queries ended).
/// - `<prefix>/status` `online` (Home Assistant started or reconnected): after a short random delay, every
///   config is published again, then the bridge's availability and states.
/// A second bridge on the same broker has its own namespaces (its name; its own Z-Wave home id), so the two never
/// touch each other's configs.
public actor HomeAssistantDiscovery: BridgeFrontEnd {
    let prefix: String
    let mqtt: any MQTTPort
    let logger: Logger
    let delay: ClosedRange<Int>
    /// The bridge's own namespace (`thuis_<bridge>`: the bridge and its CEC devices).
    let bridgeNode: String
    public nonisolated let subscriptions: [String]

    /// What is published now, config topic → its payload's fingerprint (the payloads themselves are not kept).
    var published: [String: Fingerprint] = [:]
    /// Each group of devices as last mapped, with the fingerprints of its configs by topic: a group that did not
    /// change is not mapped again (a start changes the inventory hundreds of times, each time for a node or two).
    var groups: [DiscoveryMapping.Group.Key: (group: DiscoveryMapping.Group, configs: [String: Fingerprint])] = [:]
    /// Config topics found retained on our namespaces, not yet known to be current.
    var leftovers: Set<String> = []
    var inventory: BridgeInventory?
    /// The Z-Wave namespace subscribed to (`thuis_zwave_<home id>`).
    var zwaveNode: String?
    let (announcements, announced) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))

    /// - Parameters:
    ///   - delayMilliseconds: how long to wait after Home Assistant's `online` before publishing again, drawn
    ///     at random from this range (many devices answering Home Assistant's birth at once is what it asks
    ///     integrations to avoid).
    public init(
        prefix: String, bridge: BridgeIdentity, mqtt: any MQTTPort, logger: Logger,
        delayMilliseconds: ClosedRange<Int> = 500...2500
    ) {
        self.prefix = prefix
        self.mqtt = mqtt
        self.logger = logger
        self.delay = delayMilliseconds
        self.bridgeNode = "thuis_\(bridge.name)"
        self.subscriptions = ["\(prefix)/status", "\(prefix)/+/thuis_\(bridge.name)/+/config"]
    }

    public nonisolated func owns(_ topic: String) -> Bool {
        topic.utf8.starts(with: (prefix + "/").utf8)
    }

    public func receive(_ message: InboundMessage) async {
        if message.topic == "\(prefix)/status" {
            if message.payload.elementsEqual("online".utf8) { announced.yield() }
            return
        }
        // Our own publications come back live (not retained): only what the broker held at subscribe time is a
        // candidate leftover.
        guard message.retained, !message.payload.isEmpty, namespace(of: message.topic) != nil else { return }
        if published[message.topic] == nil {
            // At start-up every config of an earlier run comes back, one message each: only a namespace already
            // complete is looked at again.
            leftovers.insert(message.topic)
            if isComplete(namespace(of: message.topic)) { await clearLeftovers() }
        }
    }

    public func inventoryChanged(_ inventory: BridgeInventory) async {
        self.inventory = inventory
        if let home = inventory.networks[.zwave], zwaveNode != "thuis_zwave_\(home)" {
            zwaveNode = "thuis_zwave_\(home)"
            await mqtt.subscribe("\(prefix)/+/thuis_zwave_\(home)/+/config")
        }
        await publish(inventory, force: false)
        await clearLeftovers()
    }

    public func run(serving bridge: Bridge) async {
        for await _ in announcements {
            let wait = Duration.milliseconds(Int.random(in: delay))
            guard (try? await Task.sleep(for: wait)) != nil else { return }
            guard let inventory else { continue }
            logger.info("Home Assistant is online: publishing discovery again")
            await publish(inventory, force: true)
            await bridge.republishStates()
        }
    }

    /// A config payload's length and hash: equal payloads have equal fingerprints, and a changed payload a different
    /// one (but for a 64-bit hash collision).
    struct Fingerprint: Equatable {
        let length: Int
        let hash: Int
        init(_ text: String) {
            length = text.utf8.count
            hash = text.hashValue
        }
    }

    /// Publishes the configs of `inventory` that are new or changed (all of them with `force`) and clears those
    /// gone. Only the groups of devices that changed since they were last mapped are mapped again.
    func publish(_ inventory: BridgeInventory, force: Bool) async {
        var current: [String: Fingerprint] = [:]
        var mapped: [DiscoveryMapping.Group.Key: (group: DiscoveryMapping.Group, configs: [String: Fingerprint])] =
            [:]
        for group in DiscoveryMapping.groups(of: inventory) {
            if !force, let known = groups[group.key], known.group == group {
                // Kept as this inventory has it (the same value): earlier inventories are not held on to.
                mapped[group.key] = (group, known.configs)
                current.merge(known.configs) { first, _ in first }
                continue
            }
            var configs: [String: Fingerprint] = [:]
            for config in DiscoveryMapping.configs(of: group, identity: inventory.identity) {
                let topic = config.topic(prefix: prefix)
                let text = config.payload.serialized
                let fingerprint = Fingerprint(text)
                configs[topic] = fingerprint
                if force || published[topic] != fingerprint {
                    await mqtt.publish(topic: topic, text: text, retain: true)
                }
            }
            mapped[group.key] = (group, configs)
            current.merge(configs) { first, _ in first }
        }
        groups = mapped
        for topic in published.keys.sorted() where current[topic] == nil {
            await mqtt.publish(topic: topic, payload: [], retain: true)
        }
        published = current
        leftovers.subtract(current.keys)
    }

    /// Clears the leftovers of every namespace whose devices are all known, in topic order.
    func clearLeftovers() async {
        guard !leftovers.isEmpty else { return }
        var current: [String] = []
        var gone: [String] = []
        for topic in leftovers {
            if published[topic] != nil {
                current.append(topic)
            } else if isComplete(namespace(of: topic)) {
                gone.append(topic)
            }
        }
        leftovers.subtract(current)
        for topic in gone.sorted() {
            logger.info(
                "clearing a Home Assistant config this bridge no longer produces", metadata: ["topic": "\(topic)"])
            await mqtt.publish(topic: topic, payload: [], retain: true)
            leftovers.remove(topic)
        }
    }

    /// Whether the bridge knows every device of a namespace: CEC and the bridge at once, Z-Wave when the network's
    /// start-up queries ended.
    func isComplete(_ namespace: Namespace?) -> Bool {
        guard let inventory else { return false }
        switch namespace {
        case .bridge?: return inventory.complete.contains(.cec)
        case .zwave?: return inventory.complete.contains(.zwave)
        case nil: return false
        }
    }

    enum Namespace { case bridge, zwave }

    /// Which of our namespaces a config topic `<prefix>/<component>/<node>/<object>/config` is in.
    func namespace(of topic: String) -> Namespace? {
        let levels = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 4, levels[3] == "config" else { return nil }
        if levels[1] == bridgeNode { return .bridge }
        if let zwaveNode, levels[1] == zwaveNode { return .zwave }
        return nil
    }
}
