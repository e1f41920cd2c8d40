internal import CZWaveShim

extension OpenZWave {
    /// The node's neighbours in the controller's routing table as OpenZWave last read it (`zw_node_get_neighbors`),
    /// sorted; empty while the node's interview has not read them yet.
    public func neighbors(of node: NodeID) throws(ZWaveError) -> [NodeID] {
        let (manager, home) = try requireReady("zw_node_get_neighbors", node: node)
        var ids = [UInt8](repeating: 0, count: 232)
        var count: UInt32 = 0
        try ZWaveError.check(
            zw_node_get_neighbors(manager, home.rawValue, node.rawValue, &ids, &count),
            call: "zw_node_get_neighbors", node: node)
        return ids.prefix(Int(count)).sorted().map { NodeID($0) }
    }

    /// Asks the node to discover its neighbours (`zw_request_node_neighbor_update`, controller command 10); its
    /// progress arrives as `controllerCommand` events, and OpenZWave reads the new table once it is done.
    public func requestNeighborUpdate(node: NodeID) throws(ZWaveError) {
        let (manager, home) = try requireReady("zw_request_node_neighbor_update", node: node)
        try ZWaveError.check(
            zw_request_node_neighbor_update(manager, home.rawValue, node.rawValue),
            call: "zw_request_node_neighbor_update", node: node)
    }
}
