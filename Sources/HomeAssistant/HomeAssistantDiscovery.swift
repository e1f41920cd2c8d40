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

    /// What is published now, config topic → payload.
    var published: [String: String] = [:]
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
            leftovers.insert(message.topic)
            await clearLeftovers()
        }
    }

    public func inventoryChanged(_ inventory: BridgeInventory) async {
        self.inventory = inventory
        if let home = inventory.networks[.zwave], zwaveNode != "thuis_zwave_\(home)" {
            zwaveNode = "thuis_zwave_\(home)"
            await mqtt.subscribe("\(prefix)/+/thuis_zwave_\(home)/+/config")
        }
        await publish(DiscoveryMapping.configs(for: inventory), force: false)
        await clearLeftovers()
    }

    public func run(serving bridge: Bridge) async {
        for await _ in announcements {
            let wait = Duration.milliseconds(Int.random(in: delay))
            guard (try? await Task.sleep(for: wait)) != nil else { return }
            guard let inventory else { continue }
            logger.info("Home Assistant is online: publishing discovery again")
            await publish(DiscoveryMapping.configs(for: inventory), force: true)
            await bridge.republishStates()
        }
    }

    /// Publishes the configs that are new or changed (all of them with `force`) and clears those gone.
    func publish(_ configs: [DiscoveryConfig], force: Bool) async {
        var current: [String: String] = [:]
        for config in configs {
            let topic = config.topic(prefix: prefix)
            let text = config.payload.serialized
            current[topic] = text
            if force || published[topic] != text {
                await mqtt.publish(topic: topic, text: text, retain: true)
            }
        }
        for topic in published.keys.sorted() where current[topic] == nil {
            await mqtt.publish(topic: topic, payload: [], retain: true)
        }
        published = current
        leftovers.subtract(current.keys)
    }

    /// Clears the leftovers of every namespace whose devices are all known.
    func clearLeftovers() async {
        guard let inventory else { return }
        for topic in leftovers.sorted() {
            guard published[topic] == nil else {
                leftovers.remove(topic)
                continue
            }
            let complete: Bool
            switch namespace(of: topic) {
            case .bridge?: complete = inventory.complete.contains(.cec)
            case .zwave?: complete = inventory.complete.contains(.zwave)
            case nil: complete = false
            }
            guard complete else { continue }
            logger.info(
                "clearing a Home Assistant config this bridge no longer produces", metadata: ["topic": "\(topic)"])
            await mqtt.publish(topic: topic, payload: [], retain: true)
            leftovers.remove(topic)
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
