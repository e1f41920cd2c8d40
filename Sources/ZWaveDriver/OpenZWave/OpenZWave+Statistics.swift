internal import CZWaveShim

extension OpenZWave {
    /// OpenZWave's counters for `node` (`zw_node_get_statistics`).
    public func nodeStatistics(_ node: NodeID) throws(ZWaveError) -> ZWaveNodeStatistics {
        let (manager, home) = try requireReady("zw_node_get_statistics", node: node)
        var stats = zw_node_statistics()
        try ZWaveError.check(
            zw_node_get_statistics(manager, home.rawValue, node.rawValue, &stats), call: "zw_node_get_statistics",
            node: node)
        var route: ZWaveNodeStatistics.Route?
        if stats.route_reported {
            let rssi = [stats.rssi.0, stats.rssi.1, stats.rssi.2, stats.rssi.3, stats.rssi.4]
                .map { String(cTuple: $0) }.filter { !$0.isEmpty }
            let used = [stats.route_used.0, stats.route_used.1, stats.route_used.2, stats.route_used.3]
            let from = Int(stats.last_failed_link_from)
            route = ZWaveNodeStatistics.Route(
                hops: Int(stats.hops), rssi: rssi, repeaters: used.filter { $0 != 0 }.map { Int($0) },
                lastFailedLink: from == 0 ? nil : (from, Int(stats.last_failed_link_to)))
        }
        return ZWaveNodeStatistics(
            node: node, sent: Int(stats.sent), sentFailed: Int(stats.sent_failed), retries: Int(stats.retries),
            received: Int(stats.received), receivedDuplicates: Int(stats.received_duplicates),
            receivedUnsolicited: Int(stats.received_unsolicited), lastRequestRTT: Int(stats.last_request_rtt_ms),
            averageRequestRTT: Int(stats.average_request_rtt_ms),
            averageResponseRTT: Int(stats.average_response_rtt_ms), quality: Int(stats.quality),
            sentAt: String(cTuple: stats.sent_at), receivedAt: String(cTuple: stats.received_at), route: route)
    }

    /// The driver's counters (`zw_driver_get_statistics`).
    public func driverStatistics() throws(ZWaveError) -> ZWaveDriverStatistics {
        let (manager, home) = try requireReady("zw_driver_get_statistics", node: nil)
        var s = zw_driver_statistics()
        try ZWaveError.check(zw_driver_get_statistics(manager, home.rawValue, &s), call: "zw_driver_get_statistics")
        let counters: [(String, UInt32)] = [
            ("frames_started", s.sof), ("ack_waiting", s.ack_waiting), ("read_aborts", s.read_aborts),
            ("bad_checksum", s.bad_checksum), ("read", s.read), ("written", s.written), ("can", s.can),
            ("nak", s.nak), ("ack", s.ack), ("out_of_frame", s.out_of_frame), ("dropped", s.dropped),
            ("retries", s.retries), ("unexpected_callbacks", s.unexpected_callbacks), ("bad_routes", s.bad_routes),
            ("no_ack", s.no_ack), ("network_busy", s.network_busy), ("not_idle", s.not_idle),
            ("non_delivery", s.non_delivery), ("routed_busy", s.routed_busy), ("broadcast_read", s.broadcast_read),
            ("broadcast_written", s.broadcast_written),
        ]
        return ZWaveDriverStatistics(counters: counters.map { (name: $0.0, value: Int($0.1)) })
    }

    /// Queues `count` NoOperation frames to `node` (`zw_test_network_node`); each one's end arrives as a
    /// `noOperationCompleted` event, after the node's statistics counted it.
    public func testNode(_ node: NodeID, count: Int) throws(ZWaveError) {
        let (manager, home) = try requireReady("zw_test_network_node", node: node)
        try ZWaveError.check(
            zw_test_network_node(manager, home.rawValue, node.rawValue, UInt32(clamping: max(1, count))),
            call: "zw_test_network_node", node: node)
    }
}
