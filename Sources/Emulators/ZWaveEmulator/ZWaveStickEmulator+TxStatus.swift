/// The extended transmit status report of a 500/700 series stick (INS13954, SERIAL_API_SETUP with
/// TX_STATUS_REPORT): once the host enables it, each SEND_DATA callback carries, after the transmit ticks, the
/// route the frame took. OpenZWave 1.6 fills a node's statistics from it (hops, RSSI per hop, repeaters, route
/// scheme and speed, last failed link).
extension ZWaveStickEmulator {
    /// SERIAL_API_SETUP's TX_STATUS_REPORT sub-command.
    static let setupTxStatusReport: UInt8 = 0x02
    /// RSSI byte of a hop that was not used (RSSI_NOT_AVAILABLE).
    static let rssiNotAvailable: UInt8 = 0x7F

    /// The functions of `SerialFunction.supported` this stick leaves out of its capabilities: SERIAL_API_SETUP
    /// unless the description gives it the transmit status report.
    var unsupported: Set<UInt8> { network.txStatusReport ? [] : [SerialFunction.serialAPISetup] }

    /// SERIAL_API_SETUP: `cmd [args]` → `cmd status`. Only the transmit status report is supported, and only by a
    /// stick whose description says so; anything else is answered as unsupported. Runs on the queue.
    func serialAPISetup(_ f: SerialFrame) {
        let command = f.payload.first ?? 0x00
        guard network.txStatusReport, command == Self.setupTxStatusReport else {
            respond(f, [command, 0x00])
            return
        }
        extendedTxStatus = f.payload.count >= 2 && f.payload[1] != 0
        note("extended transmit status report \(extendedTxStatus ? "enabled" : "disabled")")
        respond(f, [command, 0x01])
    }

    /// The 17 bytes that follow the transmit ticks in a SEND_DATA callback when the report is enabled (else none):
    /// hops, RSSI of each hop (dBm, signed; 0x7F not available), ACK and TX channel, route scheme, the four
    /// repeaters, route speed, tries, and the last failed link. The route is the shortest through the stick's
    /// routing table; a frame that got no ACK failed on the route's last link. Runs on the queue.
    func transmitReport(to node: UInt8, acknowledged: Bool) -> [UInt8] {
        guard extendedTxStatus, node != 0xFF else { return [] }
        let repeaters = Array(shortestRoute(to: node).prefix(4))
        let hops = repeaters.count
        let rssi = (0..<5).map { hop in
            hop <= hops && acknowledged ? UInt8(bitPattern: Int8(-52 - 4 * hop)) : Self.rssiNotAvailable
        }
        let scheme: UInt8 = hops == 0 ? 1 : 3  // ROUTINGSCHEME_DIRECT, ROUTINGSCHEME_CACHED_ROUTE
        let failedLink: [UInt8] = acknowledged ? [0, 0] : [repeaters.last ?? 1, node]
        return [UInt8(hops)] + rssi + [0x00, 0x00, scheme]
            + (repeaters + [0, 0, 0, 0]).prefix(4) + [0x03, acknowledged ? 1 : 3] + failedLink
    }

    /// The repeaters (in order) on a shortest path from the stick to `node` in the stick's routing table; empty
    /// for a node the stick hears directly or cannot route to.
    func shortestRoute(to node: UInt8) -> [UInt8] {
        var previous: [UInt8: UInt8] = [1: 1]
        var frontier: [UInt8] = [1]
        while !frontier.isEmpty, previous[node] == nil {
            var next: [UInt8] = []
            for hop in frontier {
                for other in (routingTable[hop] ?? []).sorted() where previous[other] == nil {
                    previous[other] = hop
                    next.append(other)
                }
            }
            frontier = next
        }
        guard previous[node] != nil else { return [] }
        var route: [UInt8] = []
        var at = previous[node] ?? 1
        while at != 1 {
            route.insert(at, at: 0)
            at = previous[at] ?? 1
        }
        return route
    }
}
