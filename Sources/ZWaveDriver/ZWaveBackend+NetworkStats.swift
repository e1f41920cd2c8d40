internal import BridgeCore

/// `network_stats`: every node's statistics in one answer, the driver's counters, and how many nodes are alive,
/// dead (the controller marked them failed) and asleep (battery nodes between wake-ups).
extension ZWaveBackend {
    func networkStatistics() async throws(RequestFailure) -> JSONValue {
        let controller = await driver.controllerNode
        var entries: [JSONValue] = []
        var counts = (alive: 0, dead: 0, asleep: 0)
        for node in knownNodes.sorted(by: { $0.rawValue < $1.rawValue }) where node != controller {
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
