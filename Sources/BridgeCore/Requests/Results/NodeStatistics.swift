/// A node's statistics as the library counts them since it started: frames sent, failed, retried and received, the
/// round trips, and the route of the last transmission when the stick reported one.
public struct NodeStatistics: Sendable, Hashable {
    public let node: Int
    public let sent: Int
    public let sentFailed: Int
    public let retries: Int
    /// Frames received, with duplicates and unsolicited ones (counted apart too).
    public let received: Counts
    /// Average round trips in milliseconds: request (frame sent → acknowledged) and response.
    public let averageRequestRTT: Int
    public let averageResponseRTT: Int
    /// OpenZWave's quality measure (always 0 with OpenZWave 1.6).
    public let quality: Int
    /// When the last frame was sent and received, as the library writes it (empty: never).
    public let lastSent: String
    public let lastReceived: String
    /// The route of the last transmission (nil: the stick sent no transmit status report).
    public let route: Route?

    public init(
        node: Int, sent: Int, sentFailed: Int, retries: Int, received: Counts, averageRequestRTT: Int,
        averageResponseRTT: Int, quality: Int, lastSent: String, lastReceived: String, route: Route?
    ) {
        self.node = node
        self.sent = sent
        self.sentFailed = sentFailed
        self.retries = retries
        self.received = received
        self.averageRequestRTT = averageRequestRTT
        self.averageResponseRTT = averageResponseRTT
        self.quality = quality
        self.lastSent = lastSent
        self.lastReceived = lastReceived
        self.route = route
    }

    /// Frames received from the node: all, duplicates, unsolicited.
    public struct Counts: Sendable, Hashable {
        public let total: Int
        public let duplicates: Int
        public let unsolicited: Int

        public init(total: Int, duplicates: Int, unsolicited: Int) {
            self.total = total
            self.duplicates = duplicates
            self.unsolicited = unsolicited
        }
    }

    /// The route fields of a transmit status report.
    public struct Route: Sendable, Hashable {
        /// Repeaters the frame passed.
        public let hops: Int
        /// The signal strengths for the sender and each repeater (dBm, or a word such as "N/A").
        public let rssi: [String]
        /// The repeaters' node ids.
        public let repeaters: [Int]
        /// The link that failed last, if one did.
        public let lastFailedLink: Link?

        public init(hops: Int, rssi: [String], repeaters: [Int], lastFailedLink: Link?) {
            self.hops = hops
            self.rssi = rssi
            self.repeaters = repeaters
            self.lastFailedLink = lastFailedLink
        }
    }

    /// A link between two nodes, `from` → `to`.
    public struct Link: Sendable, Hashable {
        public let from: Int
        public let to: Int

        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }
}

/// Whether a node is `alive`, `dead` (the controller marked it failed) or `asleep` (a battery node between
/// wake-ups).
public enum NodeStatus: String, Sendable, Hashable {
    case alive
    case dead
    case asleep
}

/// The `network_stats` answer: every node's statistics with its status, how many nodes are alive, dead and asleep,
/// and the driver's counters.
public struct NetworkStatistics: Sendable, Hashable {
    /// Each node (the controller left out) with its status, by node id.
    public let nodes: [(statistics: NodeStatistics, status: NodeStatus)]
    /// The driver's counters, in the library's order.
    public let driver: [DriverCounter]

    public init(nodes: [(statistics: NodeStatistics, status: NodeStatus)], driver: [DriverCounter]) {
        self.nodes = nodes
        self.driver = driver
    }

    /// How many nodes have `status`.
    public func count(_ status: NodeStatus) -> Int { nodes.count { $0.status == status } }

    public static func == (a: Self, b: Self) -> Bool {
        a.driver == b.driver && a.nodes.map(\.statistics) == b.nodes.map(\.statistics)
            && a.nodes.map(\.status) == b.nodes.map(\.status)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(nodes.map(\.statistics))
        hasher.combine(nodes.map(\.status))
        hasher.combine(driver)
    }
}

/// One of the driver's counters, under the name `network_stats` publishes (`sof`, `ack_waiting`...).
public struct DriverCounter: Sendable, Hashable {
    public let name: String
    public let value: Int

    public init(name: String, value: Int) {
        self.name = name
        self.value = value
    }
}
