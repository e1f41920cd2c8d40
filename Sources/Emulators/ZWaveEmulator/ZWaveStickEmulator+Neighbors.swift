internal import Dispatch

/// The mesh: the stick's routing table (GET_ROUTING_INFO), neighbour updates, and moving a node.
extension ZWaveStickEmulator {
    /// GET_ROUTING_INFO's answer for `node`: the 29-byte bitmap (bit n-1 for node n) of its neighbours in the
    /// stick's routing table, the stick itself included when the node hears it. Nodes not in the network are left
    /// out. Runs on the queue.
    func routingInfo(_ node: UInt8) -> [UInt8] {
        var map = [UInt8](repeating: 0, count: 29)
        guard node == 1 || nodes[node]?.included == true else { return map }
        for other in routingTable[node] ?? [] where other == 1 || nodes[other]?.included == true {
            let bit = Int(other) - 1
            map[bit / 8] |= UInt8(1) << UInt8(bit % 8)
        }
        return map
    }

    /// A neighbour update of `node`: the stick's routing table takes the node's neighbours on the radio, both ways.
    /// Runs on the queue.
    func learnNeighbors(of node: UInt8) {
        let heard = radioNeighbors[node] ?? []
        Self.link(node, to: heard, in: &routingTable)
        note("routing table of node \(node): \(heard.sorted())")
    }

    /// Replaces `node`'s links in `table` by links to `heard`, both ways.
    static func link(_ node: UInt8, to heard: Set<UInt8>, in table: inout [UInt8: Set<UInt8>]) {
        for key in table.keys { table[key]?.remove(node) }
        table[node] = heard
        for other in heard { table[other, default: []].insert(node) }
    }

    /// Moves `node` so that it hears exactly `neighbors` on the radio (1 = the stick). The stick's routing table
    /// keeps the old links until the node's next neighbour update, as a real one does. Returns why not, or nil.
    public func move(node: UInt8, neighbors: [UInt8]) -> String? {
        queue.sync {
            guard nodes[node] != nil else { return "no node \(node)" }
            if let bad = neighbors.first(where: { $0 == node || ($0 != 1 && nodes[$0] == nil) }) {
                return "\(bad) is not another node of the network"
            }
            Self.link(node, to: Set(neighbors), in: &radioNeighbors)
            note("node \(node) moved; it hears \(neighbors.sorted())")
            return nil
        }
    }

    /// The neighbours of `node` in the stick's routing table (what GET_ROUTING_INFO answers), sorted.
    public func routingNeighbors(of node: UInt8) -> [UInt8] {
        queue.sync {
            let map = routingInfo(node)
            return (1...232).map { UInt8($0) }.filter { map[Int($0 - 1) / 8] & (UInt8(1) << UInt8(($0 - 1) % 8)) != 0 }
        }
    }
}
