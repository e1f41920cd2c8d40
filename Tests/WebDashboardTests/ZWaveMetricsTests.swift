import BridgeCore
import Testing
import WebDashboard

/// The Z-Wave series of `/metrics` from `network_stats`: OpenZWave's counters as monotonic `_total` counters, round
/// trips and quality as gauges, node counts by status, the driver's counters.
@Suite struct ZWaveMetricsTests {
    static func statistics(sent: Int, failed: Int, nak: Int) -> JSONValue {
        .object([
            ("alive", .int(1)), ("dead", .int(1)), ("asleep", .int(0)),
            (
                "nodes",
                .array([
                    .object([
                        ("node", .int(2)), ("status", .string("alive")), ("sent", .int(sent)),
                        ("sent_failed", .int(failed)), ("retries", .int(0)), ("received", .int(4)),
                        ("received_duplicates", .int(0)), ("received_unsolicited", .int(1)),
                        ("average_request_rtt_ms", .int(12)), ("average_response_rtt_ms", .int(30)),
                        ("quality", .int(0)),
                    ])
                ])
            ),
            ("driver", .object([("nak", .int(nak)), ("no_ack", .int(3))])),
        ])
    }

    func exposition(_ metrics: DashboardMetrics, _ statistics: JSONValue) -> String {
        metrics.refresh(
            .init(mqttConnected: true, adapters: [.zwave: true], retained: [:], networkStatistics: statistics))
        return String(decoding: metrics.exposition(), as: UTF8.self)
    }

    @Test func libraryCountersBecomeMonotonicCountersAndTheRestGauges() {
        let metrics = DashboardMetrics()
        let first = exposition(metrics, Self.statistics(sent: 5, failed: 1, nak: 2))
        for line in [
            "# TYPE thuis_zwave_node_sent_frames_total counter",
            #"thuis_zwave_node_sent_frames_total{node="2",room="",name=""} 5"#,
            #"thuis_zwave_node_failed_frames_total{node="2",room="",name=""} 1"#,
            #"thuis_zwave_node_unsolicited_frames_total{node="2",room="",name=""} 1"#,
            #"thuis_zwave_node_request_rtt_milliseconds{node="2",room="",name=""} 12.0"#,
            #"thuis_zwave_nodes{status="dead"} 1.0"#,
            #"thuis_zwave_driver_total{counter="nak"} 2"#,
        ] {
            #expect(first.contains(line), "no \(line) in:\n\(first)")
        }
        let second = exposition(metrics, Self.statistics(sent: 9, failed: 1, nak: 2))
        #expect(second.contains(#"thuis_zwave_node_sent_frames_total{node="2",room="",name=""} 9"#), "\(second)")
        #expect(second.contains(#"thuis_zwave_driver_total{counter="nak"} 2"#), "\(second)")
        // The library started again (its counters went down): the counter keeps growing, never goes back.
        let third = exposition(metrics, Self.statistics(sent: 3, failed: 0, nak: 0))
        #expect(third.contains(#"thuis_zwave_node_sent_frames_total{node="2",room="",name=""} 12"#), "\(third)")
    }
}
