/// What a ``BridgeRequestHandler`` answers: one case per kind of answer. The hardware drivers return these values;
/// their JSON (the response's `data`) is written in one place, ``json`` (`RequestResult+Wire.swift`).
public enum RequestResult: Sendable, Equatable {
    /// `include` and `refresh`: the node, its identity, how its interview ended and a devices.toml stanza.
    case inclusion(InclusionOutcome)
    /// `exclude`: the node that left the network.
    case excluded(node: Int)
    /// `remove_failed`: the failed node the controller removed.
    case failedNodeRemoved(node: Int)
    /// `cancel`: the controller operation that was cancelled (`include`, `exclude`...), or nil when none ran.
    case cancelled(operation: String?)
    /// `heal`: the heal of `node` (nil: the whole network) started.
    case healStarted(node: Int?)
    /// `get_config` and `set_config`: the parameter as the device reported it.
    case configParameter(ConfigParameterValue)
    /// `config_list`: the parameters the library knows for a node.
    case configParameters(ConfigParameterList)
    /// `values`: every value the library has for a node.
    case nodeValues(NodeValues)
    /// `cec_tx`: the frame as sent.
    case cecTransmitted(CECTransmitResult)
    /// `node_stats`: the statistics of one node or of every node.
    case nodeStatistics([NodeStatistics])
    /// `network_stats`: every node's statistics and status, and the driver's counters.
    case networkStatistics(NetworkStatistics)
    /// `network`: the Z-Wave network's identity and the library's version and patches.
    case network(NetworkInfo)
    /// `associations`: every association group of a node.
    case associations(AssociationGroups)
    /// `associate` and `dissociate`: the changed group of `node`, as read back.
    case associationGroup(node: Int, AssociationGroup)
    /// `neighbors`: the nodes' neighbours and hops from the controller.
    case neighbors(NeighborMap)
    /// `health_check`: each tested node's frames, round trips and rating.
    case healthCheck(HealthReport)
}

/// The `cec_tx` answer: the frame transmitted, in libcec's notation (`10:04`).
public struct CECTransmitResult: Sendable, Hashable {
    public let frame: String

    public init(frame: String) { self.frame = frame }
}

/// The `network` answer: the home id and controller while the stick is ready, the running OpenZWave's version, the
/// version the bridge's library patches were written for, and the patches in force or why none is.
public struct NetworkInfo: Sendable, Hashable {
    public let homeID: String?
    public let controller: Int?
    public let openZWave: String
    public let patchesWrittenFor: String
    public let patches: [String]
    public let patchesRefused: String?

    public init(
        homeID: String?, controller: Int?, openZWave: String, patchesWrittenFor: String, patches: [String],
        patchesRefused: String?
    ) {
        self.homeID = homeID
        self.controller = controller
        self.openZWave = openZWave
        self.patchesWrittenFor = patchesWrittenFor
        self.patches = patches
        self.patchesRefused = patchesRefused
    }
}
