internal import BridgeCore
internal import FoundationEssentials
internal import Logging

/// The `neighbors` request: each node's neighbours in the controller's routing table, its hops from the controller
/// (a breadth-first search over the links, both ways), when the table was read; with `refresh`, after a neighbour
/// update of the node(s).
extension MeshMonitor {
    /// OpenZWave's `ControllerCommand_RequestNodeNeighborUpdate`.
    static let neighborUpdateCommand: UInt8 = 10
    /// How long a node's neighbour update may take before the request gives up on it.
    static let neighborUpdateTimeout: Duration = .seconds(60)
    /// How long OpenZWave may take to read the new table after the update completed.
    static let neighborReadTimeout: Duration = .seconds(5)

    func neighbors(node number: Int?, refresh: Bool) async throws(RequestFailure) -> NeighborMap {
        let controller = await driver.controllerNode
        var targets: [NodeID]
        if let number {
            targets = [try await ZWaveBackend.knownNode(number, on: driver)]
        } else {
            targets = interview.knownNodes.filter { $0 != controller }.sorted()
        }
        var refreshErrors: [NodeID: String] = [:]
        if refresh {
            if let running = sessions.session {
                throw RequestFailure("busy: \(running.kind.rawValue) is running; try again after it")
            }
            guard neighbours.updating == nil else { throw RequestFailure("busy: a neighbour update is running") }
            for node in targets where node != controller {
                do {
                    try await updateNeighbors(of: node)
                } catch {
                    guard number == nil else { throw error }
                    refreshErrors[node] = error.reason
                }
            }
        }
        var table: [NodeID: [NodeID]] = [:]
        for node in interview.knownNodes.union(controller.map { [$0] } ?? []) {
            table[node] = (try? await driver.neighbors(of: node)) ?? []
        }
        let hops = controller.map { Self.hops(from: $0, table) } ?? [:]
        var entries: [NodeNeighbors] = []
        for node in targets {
            let info = try? await driver.nodeInfo(node)
            entries.append(
                NodeNeighbors(
                    node: Int(node.rawValue), neighbors: (table[node] ?? []).map { Int($0.rawValue) },
                    hops: hops[node], readAt: neighbours.readAt[node]?.timeIntervalSince1970,
                    dead: info?.isFailed ?? false, refreshError: refreshErrors[node]))
        }
        return NeighborMap(controller: controller.map { Int($0.rawValue) }, nodes: entries)
    }

    /// Asks `node` for a neighbour update, waits for the controller's result, then for OpenZWave to read the new
    /// table (it changed, or the library's queues emptied after the read).
    func updateNeighbors(of node: NodeID) async throws(RequestFailure) {
        let before = (try? await driver.neighbors(of: node)) ?? []
        neighbours.updating = node
        neighbours.updateState = nil
        defer { neighbours.updating = nil }
        do {
            try await driver.requestNeighborUpdate(node: node)
        } catch {
            throw RequestFailure("cannot ask \(node) for a neighbour update: \(error)")
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: Self.neighborUpdateTimeout)
        while clock.now < deadline, !Task.isCancelled {
            switch neighbours.updateState {
            case .completed?:
                await awaitNeighborRead(of: node, before: before)
                neighbours.readAt[node] = Date()
                return
            case .failed?, .error?, .cancel?, .nodeFailed?:
                let state = neighbours.updateState.map { "\($0)" } ?? ""
                throw RequestFailure("the neighbour update of \(node) failed: the controller reported \(state)")
            default:
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        throw RequestFailure("the neighbour update of \(node) did not end within \(Self.neighborUpdateTimeout)")
    }

    /// After a completed update OpenZWave queues the read of the table (GET_ROUTING_INFO) first: waits until the
    /// table differs from `before`, or the send queues stayed empty for 200 ms, at most ``neighborReadTimeout``.
    func awaitNeighborRead(of node: NodeID, before: [NodeID]) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: Self.neighborReadTimeout)
        var emptySince: ContinuousClock.Instant?
        while clock.now < deadline, !Task.isCancelled {
            if let now = try? await driver.neighbors(of: node), now != before { return }
            if (try? await driver.sendQueueCount()) == 0 {
                let since = emptySince ?? clock.now
                emptySince = since
                if since.duration(to: clock.now) >= .milliseconds(200) { return }
            } else {
                emptySince = nil
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        logger.warning("the node's new neighbour table was not read in time", metadata: ["node": "\(node.rawValue)"])
    }

    /// A `Type_ControllerCommand` notification of the running neighbour update.
    func neighbourUpdate(_ update: ZWaveControllerUpdate) {
        guard update.command == Self.neighborUpdateCommand, let node = neighbours.updating, update.node == node else {
            return
        }
        neighbours.updateState = update.state
    }

    /// Each node's hops from `root` over the links of `table`, counted both ways; unreachable nodes are left out.
    static func hops(from root: NodeID, _ table: [NodeID: [NodeID]]) -> [NodeID: Int] {
        var links: [NodeID: Set<NodeID>] = [:]
        for (node, heard) in table {
            for other in heard where other != node {
                links[node, default: []].insert(other)
                links[other, default: []].insert(node)
            }
        }
        var hops: [NodeID: Int] = [root: 0]
        var frontier = [root]
        var depth = 0
        while !frontier.isEmpty {
            depth += 1
            var next: [NodeID] = []
            for node in frontier {
                for other in links[node] ?? [] where hops[other] == nil {
                    hops[other] = depth
                    next.append(other)
                }
            }
            frontier = next
        }
        return hops
    }
}
