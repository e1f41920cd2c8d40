/// A bridge API request (`<prefix>/bridge/<bridge>/request/<verb>`), parsed and validated in the core
/// (``parse(verb:arguments:)``), so every front end (MQTT, the CLI through MQTT, the dashboard) gets the same
/// checks and the same error replies. The hardware backends receive only well-formed requests.
public enum BridgeRequest: Sendable, Hashable {
    /// The inventory of every device the bridge knows.
    case devices
    /// Inclusion mode for `timeoutSeconds`; the new node's interview may take `interviewTimeoutSeconds`.
    case include(timeoutSeconds: Int, secure: Bool, interviewTimeoutSeconds: Int)
    /// Exclusion mode for `timeoutSeconds`.
    case exclude(timeoutSeconds: Int)
    /// Ends a running inclusion, exclusion or failed-node removal.
    case cancel
    /// Re-interviews `node`.
    case refresh(node: Int, interviewTimeoutSeconds: Int)
    /// Heals the routes of `node`, or of the whole network.
    case heal(node: Int?)
    /// Removes a node the controller has marked failed.
    case removeFailed(node: Int)
    /// Reads a configuration parameter from the device.
    case getConfig(node: Int, parameter: Int)
    /// Sets a configuration parameter; `size` 0 takes the size the library knows (else 1 byte).
    case setConfig(node: Int, parameter: Int, value: Int32, size: Int)
    /// Transmits a raw CEC frame (header byte first).
    case cecTransmit(bytes: [UInt8])
    /// OpenZWave's statistics of `node` (frames sent, received, failed, retries...), or of every node.
    case nodeStatistics(node: Int?)
    /// The configuration parameters OpenZWave knows for `node` (label, value as last reported), without radio traffic.
    case configList(node: Int)
    /// `values`: every value the library has for the node, mapped to a topic or not (nothing it reports is hidden).
    case nodeValues(node: Int)
    /// The Z-Wave network: home id, controller, the OpenZWave version and which of the bridge's patches are active.
    case network
    /// The association groups of `node`: label, most members, members (with endpoints).
    case associations(node: Int)
    /// Adds `target` to association group `group` of `node`.
    case associate(node: Int, group: Int, target: AssociationTarget)
    /// Removes `target` from association group `group` of `node` (never the controller from the Lifeline).
    case dissociate(node: Int, group: Int, target: AssociationTarget)
    /// Each node's neighbours in the controller's routing table and its hops from the controller, for `node` or
    /// every node; `refresh` asks the node(s) for a neighbour update first.
    case neighbors(node: Int?, refresh: Bool)
    /// Every node's statistics, the driver's counters and how many nodes are alive, dead and asleep.
    case networkStats
    /// Pings `node` (or every node in turn) with `frames` NoOperation frames and rates each link.
    case healthCheck(node: Int?, frames: Int)

    /// The request's verb, the last level of its topic.
    public enum Verb: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case devices
        case include
        case exclude
        case cancel
        case refresh
        case heal
        case removeFailed = "remove_failed"
        case getConfig = "get_config"
        case setConfig = "set_config"
        case cecTransmit = "cec_tx"
        case nodeStatistics = "node_stats"
        case configList = "config_list"
        case values
        case network
        case associations
        case associate
        case dissociate
        case neighbors
        case networkStats = "network_stats"
        case healthCheck = "health_check"

        public var description: String { rawValue }

        /// Whether the request changes the network or the hardware (and so must never be run by accident:
        /// it needs a JSON object, never an empty payload).
        public var changesNetwork: Bool {
            switch self {
            case .devices, .getConfig, .nodeStatistics, .configList, .values, .network, .associations, .neighbors,
                .networkStats:
                false
            default: true
            }
        }

        /// The argument keys the verb takes, besides `transaction`.
        public var argumentKeys: [String] {
            switch self {
            case .devices, .cancel, .network, .networkStats: []
            case .include: ["timeout_s", "secure", "interview_timeout_s"]
            case .exclude: ["timeout_s"]
            case .refresh: ["node", "interview_timeout_s"]
            case .heal, .removeFailed, .nodeStatistics, .configList, .values, .associations: ["node"]
            case .getConfig: ["node", "parameter"]
            case .setConfig: ["node", "parameter", "value", "size"]
            case .cecTransmit: ["frame"]
            case .associate, .dissociate: ["node", "group", "target"]
            case .neighbors: ["node", "refresh"]
            case .healthCheck: ["node", "frames"]
            }
        }
    }

    /// The verb of this request.
    public var verb: Verb {
        switch self {
        case .devices: .devices
        case .include: .include
        case .exclude: .exclude
        case .cancel: .cancel
        case .refresh: .refresh
        case .heal: .heal
        case .removeFailed: .removeFailed
        case .getConfig: .getConfig
        case .setConfig: .setConfig
        case .cecTransmit: .cecTransmit
        case .nodeStatistics: .nodeStatistics
        case .configList: .configList
        case .nodeValues: .values
        case .network: .network
        case .associations: .associations
        case .associate: .associate
        case .dissociate: .dissociate
        case .neighbors: .neighbors
        case .networkStats: .networkStats
        case .healthCheck: .healthCheck
        }
    }

    /// The longest inclusion/exclusion/interview window a request may ask for, in seconds.
    public static let maximumTimeout = 600
    /// The default inclusion/exclusion/interview window, in seconds.
    public static let defaultTimeout = 60
    /// How many NoOperation frames `health_check` sends each node, by default and at most.
    public static let defaultHealthFrames = 10
    public static let healthFrames = 1...100
}

/// A request that failed, with the reason sent in the response's `error`.
public struct RequestFailure: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
