internal import BridgeCore

/// `node_stats`: one node's statistics, or every node's the library has values of; `network_stats`: every node's
/// statistics in one answer, the driver's counters, and how many nodes are alive, dead (the controller marked them
/// failed) and asleep (battery nodes between wake-ups).
extension MeshMonitor {
    func nodeStatistics(node number: Int?) async throws(RequestFailure) -> JSONValue {
        let nodes: [NodeID]
        if let number {
            nodes = [try await ZWaveBackend.knownNode(number, on: driver)]
        } else {
            nodes = Set(await driver.valueIDs().map(\.node)).sorted { $0.rawValue < $1.rawValue }
        }
        var entries: [JSONValue] = []
        for node in nodes {
            do {
                entries.append(Self.json(try await driver.nodeStatistics(node)))
            } catch {
                throw RequestFailure("cannot read the statistics of \(node): \(error)")
            }
        }
        return .object([("nodes", .array(entries))])
    }

    func networkStatistics() async throws(RequestFailure) -> JSONValue {
        let controller = await driver.controllerNode
        var entries: [JSONValue] = []
        var counts = (alive: 0, dead: 0, asleep: 0)
        for node in interview.knownNodes.sorted(by: { $0.rawValue < $1.rawValue }) where node != controller {
            let stats: ZWaveNodeStatistics
            do {
                stats = try await driver.nodeStatistics(node)
            } catch {
                throw RequestFailure("cannot read the statistics of \(node): \(error)")
            }
            let status = Self.status(try? await driver.nodeInfo(node))
            switch status {
            case "dead": counts.dead += 1
            case "asleep": counts.asleep += 1
            default: counts.alive += 1
            }
            guard case .object(var fields) = Self.json(stats) else { continue }
            fields.insert(("status", .string(status)), at: 1)
            entries.append(.object(fields))
        }
        let driverStats: ZWaveDriverStatistics
        do {
            driverStats = try await driver.driverStatistics()
        } catch {
            throw RequestFailure("cannot read the driver's statistics: \(error)")
        }
        return .object([
            ("alive", .int(counts.alive)), ("dead", .int(counts.dead)), ("asleep", .int(counts.asleep)),
            ("nodes", .array(entries)),
            ("driver", .object(driverStats.counters.map { ($0.name, .int($0.value)) })),
        ])
    }

    /// A node's statistics as the `node_stats` response shows them.
    static func json(_ stats: ZWaveNodeStatistics) -> JSONValue {
        let fields: [(String, JSONValue)] = [
            ("node", .int(Int(stats.node.rawValue))), ("sent", .int(stats.sent)),
            ("sent_failed", .int(stats.sentFailed)),
            ("retries", .int(stats.retries)), ("received", .int(stats.received)),
            ("received_duplicates", .int(stats.receivedDuplicates)),
            ("received_unsolicited", .int(stats.receivedUnsolicited)),
            ("average_request_rtt_ms", .int(stats.averageRequestRTT)),
            ("average_response_rtt_ms", .int(stats.averageResponseRTT)), ("quality", .int(stats.quality)),
            ("last_sent", .string(stats.sentAt)), ("last_received", .string(stats.receivedAt)),
        ]
        return .object(fields + routeJSON(stats.route))
    }

    /// `dead` (failed), `asleep` (a sleeping node that is not awake) or `alive`.
    nonisolated static func status(_ info: ZWaveNodeInfo?) -> String {
        guard let info else { return "alive" }
        if info.isFailed { return "dead" }
        if !info.isListening, !info.isFrequentListening, !info.isAwake { return "asleep" }
        return "alive"
    }

    /// The route fields of a node's statistics: `null` each (not reported) unless the stick sent a transmit status
    /// report.
    nonisolated static func routeJSON(_ route: ZWaveNodeStatistics.Route?) -> [(String, JSONValue)] {
        guard let route else {
            return [("hops", .null), ("rssi", .null), ("route", .null), ("last_failed_link", .null)]
        }
        return [
            ("hops", .int(route.hops)), ("rssi", .array(route.rssi.map { .string($0) })),
            ("route", .array(route.repeaters.map { .int($0) })),
            (
                "last_failed_link",
                route.lastFailedLink.map { .object([("from", .int($0.from)), ("to", .int($0.to))]) } ?? .null
            ),
        ]
    }
}
