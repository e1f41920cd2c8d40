public import BridgeCore
public import Logging

/// Home Assistant MQTT discovery for one bridge: keeps Home Assistant's view equal to the bridge's inventory.
///
/// - Every inventory change is mapped (``DiscoveryMapping``) and compared with what was published: new and
///   changed configs are published retained (QoS 1), configs no longer produced are cleared (empty retained),
///   so an excluded node or a device removed from devices.toml leaves Home Assistant.
/// - Configs this bridge published earlier (they come back retained on its own namespaces) and no longer
///   produces are cleared, once the bridge knows every device of that namespace (CEC and the bridge at once,
///   Z-Wave when the network's start-up queries ended). The namespaces are subscribed with MQTT 5's No Local: the
///   broker does not send the bridge's own configs back to it.
/// - `<prefix>/status` `online` (Home Assistant started or reconnected): after a short random delay, every
///   config is published again, then the bridge's availability and states.
/// - The MQTT connection does not keep the configs (a few hundred kB at 50 nodes): each time it connects (the
///   broker may have lost everything retained), every config is published again, made anew from the inventory.
/// Nothing of a config is kept once it is published: only each group of devices as last mapped and a hash of
/// each config topic; a group that changed is mapped again in its earlier version too, to compare.
/// A second bridge on the same broker has its own namespaces (its name; its own Z-Wave home id), so the two never
/// touch each other's configs.
public actor HomeAssistantDiscovery: BridgeFrontEnd {
    let prefix: String
    let mqtt: any MQTTPort
    let logger: Logger
    let delay: ClosedRange<Int>
    /// The bridge's own namespace (`thuis_<bridge>`: the bridge and its CEC devices).
    let bridgeNode: String
    public nonisolated var subscriptions: [String] { ["\(prefix)/status"] }

    /// What is published now: each group's configs, the config topics, the leftovers found.
    var published = PublishedConfigs()
    var inventory: BridgeInventory?
    /// The namespaces subscribed to: the bridge's, and the Z-Wave network's (`thuis_zwave_<home id>`).
    var bridgeSubscribed = false
    var zwaveNode: String?
    /// Publications asked for and done: one runs at a time.
    var turns = PublicationTurns()
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
    }

    public nonisolated func owns(_ topic: String) -> Bool {
        topic.utf8.starts(with: (prefix + "/").utf8)
    }

    public func receive(_ message: InboundMessage) async {
        if message.topic == "\(prefix)/status" {
            if message.payload.elementsEqual("online".utf8) { announced.yield() }
            return
        }
        // Only what the broker held when the subscription was made is a candidate leftover (not a config someone
        // else publishes on our namespace meanwhile).
        guard message.retained, !message.payload.isEmpty, let namespace = namespace(of: message.topic),
            !published.current.contains(message.topic.hashValue)
        else { return }
        if mayClear(message.topic, in: namespace) {
            await clearLeftover(message.topic)
        } else {
            published.leftovers.insert(message.topic)
        }
    }

    public func inventoryChanged(_ inventory: BridgeInventory) async {
        self.inventory = inventory
        if !bridgeSubscribed {
            bridgeSubscribed = true
            await mqtt.subscribe("\(prefix)/+/\(bridgeNode)/+/config", options: .noLocal)
        }
        if let home = inventory.networks[.zwave], zwaveNode != "thuis_zwave_\(home)" {
            zwaveNode = "thuis_zwave_\(home)"
            await mqtt.subscribe("\(prefix)/+/thuis_zwave_\(home)/+/config", options: .noLocal)
        }
        await publishLatest(force: false)
    }

    public func run(serving bridge: Bridge) async {
        let connections = await mqtt.connections()
        await withDiscardingTaskGroup { group in
            group.addTask {
                // Connected (again): the broker may have lost every config.
                for await _ in connections { await self.publishLatest(force: true) }
            }
            for await _ in announcements {
                let wait = Duration.milliseconds(Int.random(in: delay))
                guard (try? await Task.sleep(for: wait)) != nil else { break }
                guard inventory != nil else { continue }
                logger.info("Home Assistant is online: publishing discovery again")
                await publishLatest(force: true)
                await bridge.republishStates()
            }
            group.cancelAll()
        }
    }

    /// Publishes the latest inventory's configs that are new or changed (all of them with `force`), clears those
    /// gone and the leftovers of complete namespaces; returns when that is done. One publication at a time: one
    /// asked for meanwhile is done by the one running, with the inventory of then, before it returns.
    func publishLatest(force: Bool) async {
        let publication = turns.ask(force: force)
        guard !turns.publishing else {
            await withCheckedContinuation { turns.wait(for: publication, $0) }
            return
        }
        while let turn = turns.next() {
            if let inventory {
                await publish(inventory, force: turn.force)
                await clearLeftovers()
            }
            turns.finish(upTo: turn.upTo)
        }
    }

    /// Publishes the configs of `inventory` that are new or changed (all of them with `force`) and clears those
    /// gone. Only the groups of devices that changed since they were last mapped are mapped again, in their
    /// earlier version too.
    func publish(_ inventory: BridgeInventory, force: Bool) async {
        let identity = inventory.identity
        var earlier = published.groups
        published.groups = [:]
        for group in DiscoveryMapping.groups(of: inventory) {
            let known = earlier.removeValue(forKey: group.key)
            if !force, let known, known.group == group {
                // Kept as this inventory has it (the same value): earlier inventories are not held on to.
                published.groups[group.key] = (group, known.topics)
                continue
            }
            var before: [String: DiscoveryConfig] = [:]
            if let known, known.group != group {
                for config in DiscoveryMapping.configs(of: known.group, identity: identity) {
                    before[config.topic(prefix: prefix)] = config
                }
            }
            var topics: [Int] = []
            for config in DiscoveryMapping.configs(of: group, identity: identity) {
                let topic = config.topic(prefix: prefix)
                topics.append(topic.hashValue)
                published.leftovers.remove(topic)
                if before.removeValue(forKey: topic) != config || force {
                    await mqtt.publish(
                        topic: topic, payload: Array(config.payload.serialized.utf8), retain: true, keep: false)
                }
            }
            // Changed in one step, after the awaits: a config of ours that comes back retained meanwhile (a
            // re-subscription after a reconnect) is never taken for a leftover.
            if let known { published.current.subtract(known.topics) }
            published.current.formUnion(topics)
            published.groups[group.key] = (group, topics)
            for topic in before.keys.sorted() { await clear(topic) }
        }
        var gone: [String] = []
        for known in earlier.values {
            published.current.subtract(known.topics)
            gone += DiscoveryMapping.configs(of: known.group, identity: identity).map { $0.topic(prefix: prefix) }
        }
        for topic in gone.sorted() { await clear(topic) }
    }

    /// Clears a config topic (an empty retained message: Home Assistant drops the entity).
    func clear(_ topic: String) async {
        await mqtt.publish(topic: topic, payload: [], retain: true, keep: false)
    }

    /// Clears the leftovers of every namespace whose devices are all known, in topic order.
    func clearLeftovers() async {
        let gone = published.leftovers.filter {
            mayClear($0, in: namespace(of: $0)) && !published.current.contains($0.hashValue)
        }
        published.leftovers.subtract(gone)
        for topic in gone.sorted() { await clearLeftover(topic) }
    }

    func clearLeftover(_ topic: String) async {
        logger.info("clearing a Home Assistant config this bridge no longer produces", metadata: ["topic": "\(topic)"])
        await clear(topic)
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

    /// Whether a leftover config may be cleared: its namespace is complete, and a Z-Wave node's kinds are known
    /// (a node not interviewed yet keeps the configs of its last known kinds).
    func mayClear(_ topic: String, in namespace: Namespace?) -> Bool {
        guard isComplete(namespace) else { return false }
        guard namespace == .zwave, let inventory, let zwaveNode else { return true }
        let object = topic.split(separator: "/").dropLast().last ?? ""
        guard object.hasPrefix(zwaveNode + "_") else { return true }
        let node = Int(object.dropFirst(zwaveNode.count + 1).prefix { $0.isNumber })
        return node.map { !DiscoveryMapping.pendingNodes(of: inventory).contains($0) } ?? true
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

/// What `HomeAssistantDiscovery` has published: each group of devices as last mapped and published, with the hashes
/// of its config topics (a group that did not change is not mapped again: a start changes the inventory hundreds of
/// times, each time for a node or two); the hash of every config topic published now (`String.hashValue`: a
/// leftover whose topic collided with a current one's, 1 in 2⁶⁴, would stay); and the config topics found retained
/// on our namespaces and not produced now, kept until the namespace is complete.
struct PublishedConfigs {
    var groups: [DiscoveryMapping.Group.Key: (group: DiscoveryMapping.Group, topics: [Int])] = [:]
    var current: Set<Int> = []
    var leftovers: Set<String> = []
}

/// The turns of `HomeAssistantDiscovery.publishLatest`: one publication runs at a time, and it does every one asked
/// for before it started; a caller that asked meanwhile waits until a turn covered its publication.
struct PublicationTurns {
    private var asked = 0
    private var done = 0
    /// Whether a publication asked for and not started is of every config.
    private var forceAsked = false
    private(set) var publishing = false
    private var waiting: [(publication: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Asks for a publication (of every config with `force`); returns its number.
    mutating func ask(force: Bool) -> Int {
        asked += 1
        forceAsked = forceAsked || force
        return asked
    }

    /// `continuation` resumes once a turn covered `publication`.
    mutating func wait(for publication: Int, _ continuation: CheckedContinuation<Void, Never>) {
        waiting.append((publication, continuation))
    }

    /// The next turn: every publication asked for up to now, forced if one of them was; nil (and no longer
    /// publishing) when all are done.
    mutating func next() -> (upTo: Int, force: Bool)? {
        guard done < asked else {
            publishing = false
            return nil
        }
        publishing = true
        defer { forceAsked = false }
        return (asked, forceAsked)
    }

    /// The turn that covered publications up to `upTo` ended: their callers resume.
    mutating func finish(upTo: Int) {
        done = upTo
        waiting.removeAll { waiter in
            guard waiter.publication <= upTo else { return false }
            waiter.continuation.resume()
            return true
        }
    }
}
