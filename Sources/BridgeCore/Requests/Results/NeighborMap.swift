/// The `neighbors` answer: the controller and, for each node asked about, its neighbours in the controller's
/// routing table and its hops from the controller.
public struct NeighborMap: Sendable, Hashable {
    public let controller: Int?
    public let nodes: [NodeNeighbors]

    public init(controller: Int?, nodes: [NodeNeighbors]) {
        self.controller = controller
        self.nodes = nodes
    }
}

/// One node's neighbours.
public struct NodeNeighbors: Sendable, Hashable {
    public let node: Int
    public let neighbors: [Int]
    /// Hops from the controller (nil: not reachable over the known links).
    public let hops: Int?
    /// When the bridge last read the node's table after a neighbour update, in seconds since 1970 (nil: never).
    public let readAt: Double?
    /// Whether the controller marked the node failed.
    public let dead: Bool
    /// Why this node's neighbour update failed, in a `refresh` of every node.
    public let refreshError: String?

    public init(node: Int, neighbors: [Int], hops: Int?, readAt: Double?, dead: Bool, refreshError: String?) {
        self.node = node
        self.neighbors = neighbors
        self.hops = hops
        self.readAt = readAt
        self.dead = dead
        self.refreshError = refreshError
    }
}
