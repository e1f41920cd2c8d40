/// OpenZWave's counters for one node (`Manager::GetNodeStatistics`), since the library started.
public struct ZWaveNodeStatistics: Sendable, Hashable {
    public let node: NodeID
    /// Frames the controller sent to the node, those that failed, and the retries.
    public let sent: Int
    public let sentFailed: Int
    public let retries: Int
    /// Frames received from the node (duplicates and unsolicited ones counted apart too).
    public let received: Int
    public let receivedDuplicates: Int
    public let receivedUnsolicited: Int
    /// Round-trip times in milliseconds: the last request's (frame sent → acknowledged), and the averages.
    public let lastRequestRTT: Int
    public let averageRequestRTT: Int
    public let averageResponseRTT: Int
    /// OpenZWave's quality measure: always 0 with OpenZWave 1.6, which never computes it.
    public let quality: Int
    /// When the last frame was sent and received, as OpenZWave writes it (empty: never).
    public let sentAt: String
    public let receivedAt: String
    /// The route of the last transmission, when the stick reports it (its transmit status report); nil otherwise.
    public let route: Route?

    /// The route fields of a transmit status report.
    public struct Route: Sendable, Hashable {
        /// Repeaters the frame passed.
        public let hops: Int
        /// The signal strengths OpenZWave wrote for the sender and each repeater (dBm, or a word such as
        /// "N/A"), empty ones left out.
        public let rssi: [String]
        /// The repeaters' node ids.
        public let repeaters: [Int]
        /// The link that failed last (from, to), if one did.
        public let lastFailedLink: (from: Int, to: Int)?

        public init(hops: Int, rssi: [String], repeaters: [Int], lastFailedLink: (from: Int, to: Int)?) {
            self.hops = hops
            self.rssi = rssi
            self.repeaters = repeaters
            self.lastFailedLink = lastFailedLink
        }

        public static func == (a: Route, b: Route) -> Bool {
            a.hops == b.hops && a.rssi == b.rssi && a.repeaters == b.repeaters
                && a.lastFailedLink?.from == b.lastFailedLink?.from && a.lastFailedLink?.to == b.lastFailedLink?.to
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(hops)
            hasher.combine(repeaters)
        }
    }
}

/// The driver's counters (`Manager::GetDriverStatistics`) since the library started, under the names the
/// `network_stats` request publishes.
public struct ZWaveDriverStatistics: Sendable, Hashable {
    public let counters: [(name: String, value: Int)]

    public init(counters: [(name: String, value: Int)]) { self.counters = counters }

    public static func == (a: Self, b: Self) -> Bool {
        a.counters.map(\.name) == b.counters.map(\.name) && a.counters.map(\.value) == b.counters.map(\.value)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(counters.map(\.name))
        hasher.combine(counters.map(\.value))
    }
}
