import FoundationEssentials

/// Network maintenance the host asks of the controller: a node's neighbour update and return routes (what
/// OpenZWave's heal sends) and removing a failed node. Runs on the queue.
extension ZWaveStickEmulator {
    /// REQUEST_NODE_NEIGHBOR_UPDATE `[node, cb]` → callbacks STARTED (0x21) then DONE (0x22), or FAILED (0x23)
    /// for a dead or unknown node; the stick's routing table then holds the node's neighbours on the radio. ASSIGN/DELETE_RETURN_ROUTE `[...,cb]` → RES 1, callback `[cb, status]`
    /// (0 = OK, 1 = no ACK). REMOVE_FAILED_NODE_ID `[node, cb]` → RES 0 (started; 0x08 for an unknown node),
    /// callback `[cb, 0x01]` (removed) for a dead node, `[cb, 0x00]` (the node answered: OK, kept) otherwise.
    func maintain(_ f: SerialFrame) {
        let p = f.payload
        let id = p.first ?? 0
        let callback = p.last ?? 0
        let node = nodes[id].flatMap { $0.included ? $0 : nil }
        let latency = max(latencySeconds, 0.01)
        switch f.function {
        case SerialFunction.requestNodeNeighborUpdate:
            note("neighbour update of node \(id)")
            guard let node, !node.dead else {
                controllerCallback(f.function, [callback, 0x23], delay: latency + 0.1)
                return
            }
            learnNeighbors(of: id)
            controllerCallback(f.function, [callback, 0x21], delay: latency)
            controllerCallback(f.function, [callback, 0x22], delay: 2 * latency)
        case SerialFunction.assignReturnRoute, SerialFunction.deleteReturnRoute:
            respond(f, [0x01])
            controllerCallback(f.function, [callback, node.map { $0.dead ? 0x01 : 0x00 } ?? 0x01], delay: latency)
        case SerialFunction.removeFailedNodeID:
            guard let node else {
                respond(f, [0x08])
                return
            }
            respond(f, [0x00])
            if node.dead {
                note("failed node \(id) removed")
                nodes[id]?.included = false
                controllerCallback(f.function, [callback, 0x01], delay: latency)
            } else {
                note("node \(id) answered: not failed, kept")
                controllerCallback(f.function, [callback, 0x00], delay: latency)
            }
        default:
            break
        }
    }
}
