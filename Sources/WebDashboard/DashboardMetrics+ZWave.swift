internal import BridgeCore
internal import Prometheus
internal import Synchronization

/// The Z-Wave network in `/metrics`, from the `network_stats` answer at each scrape: OpenZWave's per-node and
/// driver counters as Prometheus counters (`_total`, growing by what the library counted since the last scrape),
/// round trips and quality as gauges, and the nodes alive, dead and asleep.
extension DashboardMetrics {
    /// The per-node counters: metric, `network_stats` field, help.
    static let nodeCounters: [(metric: String, field: String, help: String)] = [
        ("zwave_node_sent_frames", "sent", "Frames the controller sent to the node (OpenZWave)."),
        ("zwave_node_failed_frames", "sent_failed", "Frames to the node that failed (OpenZWave)."),
        ("zwave_node_retries", "retries", "Retries of frames to the node (OpenZWave)."),
        ("zwave_node_received_frames", "received", "Frames received from the node (OpenZWave)."),
        ("zwave_node_duplicate_frames", "received_duplicates", "Duplicate frames received from the node (OpenZWave)."),
        (
            "zwave_node_unsolicited_frames", "received_unsolicited",
            "Frames the node sent unasked (OpenZWave)."
        ),
    ]

    /// The per-node gauges: metric, unit, `network_stats` field, help.
    static let nodeGauges: [(metric: String, unit: String, field: String, help: String)] = [
        (
            "zwave_node_request_rtt", "milliseconds", "average_request_rtt_ms",
            "Average round trip of frames to the node, sent to acknowledged (OpenZWave)."
        ),
        (
            "zwave_node_response_rtt", "milliseconds", "average_response_rtt_ms",
            "Average time from a request to the node's answer (OpenZWave)."
        ),
        (
            "zwave_node_quality", "", "quality",
            "OpenZWave's quality measure of the node (always 0 with OpenZWave 1.6, which never computes it)."
        ),
    ]

    static var zwaveNodes: MetricNameDescriptor {
        name(
            "zwave_nodes", "", "Z-Wave nodes by status: alive, dead (failed), asleep (battery nodes between wake-ups).")
    }
    static var driverCounter: MetricNameDescriptor {
        name("zwave_driver", "total", "OpenZWave's driver counters (NAK, CAN, timeouts, bad checksums, no ACK...).")
    }

    /// Sets the Z-Wave series from a `network_stats` answer; `gauge` sets (and keeps) a gauge.
    func refreshZWave(
        _ statistics: JSONValue, inventory: BridgeInventory?,
        gauge: (MetricNameDescriptor, [(String, String)], Double) -> Void
    ) {
        for status in ["alive", "dead", "asleep"] {
            if case .int(let count)? = statistics[status] {
                gauge(Self.zwaveNodes, [("status", status)], Double(count))
            }
        }
        if case .object(let counters)? = statistics["driver"] {
            for (counter, value) in counters {
                if case .int(let value) = value { count(Self.driverCounter, [("counter", counter)], value) }
            }
        }
        guard case .array(let nodes)? = statistics["nodes"] else { return }
        for entry in nodes {
            guard case .int(let node)? = entry["node"] else { continue }
            let labels = [("node", String(node))] + Self.deviceLabels(node: node, inventory)
            for counter in Self.nodeCounters {
                if case .int(let value)? = entry[counter.field] {
                    count(Self.name(counter.metric, "total", counter.help), labels, value)
                }
            }
            for item in Self.nodeGauges {
                if case .int(let value)? = entry[item.field] {
                    gauge(Self.name(item.metric, item.unit, item.help), labels, Double(value))
                }
            }
        }
    }

    /// `room` and `name` of the node's device when it has exactly one, else empty (every series of a metric has the
    /// same label names).
    static func deviceLabels(node: Int, _ inventory: BridgeInventory?) -> [(String, String)] {
        let devices = (inventory?.devices ?? []).filter {
            if case .zwave(node, _) = $0.descriptor.source { return true }
            return false
        }
        guard devices.count == 1, let address = devices.first?.descriptor.address else {
            return [("room", ""), ("name", "")]
        }
        return [("room", address.room), ("name", address.name)]
    }

    /// Advances the counter to the library's `value` (a lower value: the library restarted, it counts from 0).
    func count(_ descriptor: MetricNameDescriptor, _ labels: [(String, String)], _ value: Int) {
        let key = descriptor.name + labels.map { "|\($0.0)=\($0.1)" }.joined()
        let delta = counted.withLock { counted in
            let last = counted[key] ?? 0
            counted[key] = value
            return value >= last ? value - last : value
        }
        let counter = registry.makeCounter(descriptor: descriptor, labels: labels)
        if delta > 0 { counter.increment(by: Int64(delta)) }
    }
}
