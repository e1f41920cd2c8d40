public import BridgeCore
internal import Synchronization

/// The dashboards' view of the bridge, and their fan-out: a front end of the bridge that follows everything it
/// publishes (``bridgePublished(topic:payload:retain:)``, on the bridge's actor), keeps what is retained (every device
/// topic, the bridge's state, the inventory) for the `snapshot` a dashboard gets when it connects, and queues each
/// publication for every connected dashboard.
///
/// Each dashboard has a bounded queue (``queueLimit`` messages). The bridge never waits for a dashboard: a dashboard
/// whose queue is full is disconnected (its socket closed with 1013, "try again later"); the page reconnects and
/// gets a fresh snapshot, so it never shows a state it missed.
public final class DashboardHub: BridgeFrontEnd, Sendable {
    public let identity: BridgeIdentity
    let scenes: [ZWaveSceneConfig]
    let queueLimit: Int
    public let metrics: DashboardMetrics
    private let state = Mutex(State())

    struct State {
        /// Retained device topics → payload.
        var retained: [String: String] = [:]
        var bridgeState = "offline"
        var inventory = "[]"
        var clients: [Int: Connected] = [:]
        var nextClient = 0
        /// Clients disconnected because their queue was full.
        var dropped: Set<Int> = []
        /// Each Z-Wave node's button scheme (its ``DeviceProfile``), from the inventory: names a mapped scene's press.
        var schemes: [Int: ButtonScheme] = [:]
    }

    /// A connected dashboard's queue, and its role: the answers to bridge requests go only to the admin's dashboards.
    struct Connected {
        let queue: AsyncStream<String>.Continuation
        let role: DashboardRole
    }

    /// A connected dashboard: the snapshot to send first (it says the dashboard's role), then its queue.
    public struct Client: Sendable {
        public let id: Int
        public let snapshot: String
        public let messages: AsyncStream<String>
    }

    public init(identity: BridgeIdentity, scenes: [ZWaveSceneConfig], metrics: DashboardMetrics, queueLimit: Int = 256)
    {
        self.identity = identity
        self.scenes = scenes
        self.metrics = metrics
        self.queueLimit = queueLimit
    }

    // MARK: Dashboards

    /// Registers a dashboard in `role`; what the bridge publishes from now on goes into its queue.
    public func connect(role: DashboardRole = .admin) -> Client {
        let (stream, continuation) = AsyncStream.makeStream(
            of: String.self, bufferingPolicy: .bufferingOldest(queueLimit))
        let (id, snapshot, count) = state.withLock { state -> (Int, String, Int) in
            let id = state.nextClient
            state.nextClient += 1
            state.clients[id] = Connected(queue: continuation, role: role)
            return (id, self.snapshot(state, role: role), state.clients.count)
        }
        metrics.clientsChanged(count)
        return Client(id: id, snapshot: snapshot, messages: stream)
    }

    /// Forgets a dashboard (its socket closed); true when it had been dropped for being too slow.
    @discardableResult
    public func disconnect(_ id: Int) -> Bool {
        let (continuation, dropped, count) = state.withLock { state in
            (state.clients.removeValue(forKey: id), state.dropped.remove(id) != nil, state.clients.count)
        }
        continuation?.queue.finish()
        metrics.clientsChanged(count)
        return dropped
    }

    /// Queues `text` for one dashboard only (an error reply).
    public func send(_ text: String, to id: Int) {
        let continuation = state.withLock { $0.clients[id] }
        if case .dropped = continuation?.queue.yield(text) { drop([id]) }
    }

    /// The dashboards connected now.
    public var clientCount: Int { state.withLock { $0.clients.count } }

    private func drop(_ ids: [Int]) {
        let finished = state.withLock { state in
            ids.compactMap { id -> AsyncStream<String>.Continuation? in
                state.dropped.insert(id)
                return state.clients.removeValue(forKey: id)?.queue
            }
        }
        // Outside the lock: finishing runs the stream's termination, which must not find the lock held.
        for continuation in finished { continuation.finish() }
        if !finished.isEmpty {
            metrics.clientsDropped(finished.count)
            metrics.clientsChanged(clientCount)
        }
    }

    // MARK: What the bridge publishes

    public var observesPublications: Bool { true }

    public func bridgePublished(topic: String, payload: [UInt8], retain: Bool) {
        let message = DashboardProtocol.outbound(
            topic: topic, payload: payload, retain: retain, topics: identity.topics)
        metrics.observe(message)
        let text = message.text
        let full = state.withLock { state -> [Int] in
            switch message {
            case .state(let topic, let payload):
                if payload.isEmpty { state.retained[topic] = nil } else { state.retained[topic] = payload }
            case .bridgeState(let value): state.bridgeState = value
            case .devices(let json): state.inventory = json
            case .event, .response, .message: break
            }
            var full: [Int] = []
            let adminOnly = if case .response = message { true } else { false }
            for (id, client) in state.clients where !adminOnly || client.role == .admin {
                if case .dropped = client.queue.yield(text) { full.append(id) }
            }
            return full
        }
        if !full.isEmpty { drop(full) }
    }

    public func commandFinished(_ report: CommandReport) {
        metrics.commandFinished(report)
    }

    /// The retained device topics and the bridge's state now (for `/metrics` and `/health`).
    public var retained: (topics: [String: String], bridgeState: String) {
        state.withLock { ($0.retained, $0.bridgeState) }
    }

    /// Everything a dashboard needs to draw the whole house: who the bridge is, the dashboard's role, its mapped
    /// scenes, its state, the inventory and every retained device topic.
    /// A mapped scene also names the button and press that send it, when the node's product is known
    /// (`"button": 2, "press": "single"`).
    private func snapshot(_ state: State, role: DashboardRole) -> String {
        let scenes = JSONValue.array(
            self.scenes.map { scene in
                let press = state.schemes[scene.node]?.press(of: scene.scene)
                return .object(
                    [("node", .int(scene.node))] + (scene.instance.map { [("instance", JSONValue.int($0))] } ?? [])
                        + [
                            ("scene", .int(scene.scene)), ("topic", .string(scene.topic)),
                            ("payload", .string(scene.payload)),
                        ]
                        + (press.map { [("button", .int($0.button)), ("press", .string($0.press.rawValue))] } ?? []))
            })
        let head = JSONValue.object([
            ("type", "snapshot"), ("version", .string(BuildInfo.version)), ("bridge", .string(identity.name)),
            ("prefix", .string(identity.prefix)), ("role", .string(role.rawValue)),
            ("state", .string(state.bridgeState)),
            ("scenes", scenes),
        ]).serialized
        let retained = JSONValue.object(state.retained.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
        return head.dropLast() + ",\"devices\":\(DashboardProtocol.embedded(state.inventory)),\"retained\":"
            + retained.serialized + "}"
    }

    // MARK: BridgeFrontEnd

    public var subscriptions: [String] { [] }
    public func owns(_ topic: String) -> Bool { false }
    public func receive(_ message: InboundMessage) async {}
    public func inventoryChanged(_ inventory: BridgeInventory) async {
        metrics.inventoryChanged(inventory)
        var schemes: [Int: ButtonScheme] = [:]
        for device in inventory.devices {
            // A node's identity and kind are its first device's (its node-level facts).
            guard case .zwave(let node, _) = device.descriptor.source, schemes[node] == nil else { continue }
            if let scheme = DeviceProfile.profile(facts: device.facts, kind: device.descriptor.kind)?.buttons {
                schemes[node] = scheme
            }
        }
        state.withLock { $0.schemes = schemes }
    }
    public func run(serving bridge: Bridge) async {}
}
