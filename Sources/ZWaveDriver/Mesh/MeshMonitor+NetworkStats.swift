internal import BridgeCore

/// `node_stats`: one node's statistics, or every node's the library has values of; `network_stats`: every node's
/// statistics in one answer, the driver's counters, and how many nodes are alive, dead (the controller marked them
/// failed) and asleep (battery nodes between wake-ups).
extension MeshMonitor {
    func nodeStatistics(node number: Int?) async throws(RequestFailure) -> [NodeStatistics] {
        let nodes: [NodeID]
        if let number {
            nodes = [try await ZWaveBackend.knownNode(number, on: driver)]
        } else {
            nodes = Set(await driver.valueIDs().map(\.node)).sorted { $0.rawValue < $1.rawValue }
        }
        var entries: [NodeStatistics] = []
        for node in nodes {
            do {
                entries.append(NodeStatistics(try await driver.nodeStatistics(node)))
            } catch {
                throw RequestFailure("cannot read the statistics of \(node): \(error)")
            }
        }
        return entries
    }

    func networkStatistics() async throws(RequestFailure) -> NetworkStatistics {
        let controller = await driver.controllerNode
        var entries: [(statistics: NodeStatistics, status: NodeStatus)] = []
        for node in interview.knownNodes.sorted(by: { $0.rawValue < $1.rawValue }) where node != controller {
            let stats: ZWaveNodeStatistics
            do {
                stats = try await driver.nodeStatistics(node)
            } catch {
                throw RequestFailure("cannot read the statistics of \(node): \(error)")
            }
            entries.append((NodeStatistics(stats), Self.status(try? await driver.nodeInfo(node))))
        }
        let driverStats: ZWaveDriverStatistics
        do {
            driverStats = try await driver.driverStatistics()
        } catch {
            throw RequestFailure("cannot read the driver's statistics: \(error)")
        }
        return NetworkStatistics(
            nodes: entries, driver: driverStats.counters.map { DriverCounter(name: $0.name, value: $0.value) })
    }

    /// `dead` (failed), `asleep` (a sleeping node that is not awake) or `alive`.
    nonisolated static func status(_ info: ZWaveNodeInfo?) -> NodeStatus {
        guard let info else { return .alive }
        if info.isFailed { return .dead }
        if !info.isListening, !info.isFrequentListening, !info.isAwake { return .asleep }
        return .alive
    }
}

extension NodeStatistics {
    /// The statistics the requests publish of what the library counted for a node.
    init(_ stats: ZWaveNodeStatistics) {
        self.init(
            node: Int(stats.node.rawValue), sent: stats.sent, sentFailed: stats.sentFailed, retries: stats.retries,
            received: Counts(
                total: stats.received, duplicates: stats.receivedDuplicates, unsolicited: stats.receivedUnsolicited),
            averageRequestRTT: stats.averageRequestRTT, averageResponseRTT: stats.averageResponseRTT,
            quality: stats.quality, lastSent: stats.sentAt, lastReceived: stats.receivedAt,
            route: stats.route.map {
                Route(
                    hops: $0.hops, rssi: $0.rssi, repeaters: $0.repeaters,
                    lastFailedLink: $0.lastFailedLink.map { Link(from: $0.from, to: $0.to) })
            })
    }
}
