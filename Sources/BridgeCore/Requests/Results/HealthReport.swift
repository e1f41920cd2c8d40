/// The `health_check` answer: how many NoOperation frames each node was sent, and each tested node's result.
public struct HealthReport: Sendable, Hashable {
    public let frames: Int
    public let nodes: [NodeHealth]

    public init(frames: Int, nodes: [NodeHealth]) {
        self.frames = frames
        self.nodes = nodes
    }
}

/// One node's health: the NoOperation frames sent, the round trips of those acknowledged, how long each waited in
/// the library's send queue, and the ``HealthRating`` they give.
public struct NodeHealth: Sendable, Hashable {
    public let node: Int
    public var status: Status
    /// Why the check of the node stopped (an `unreachable` or `queue_blocked` node).
    public var reason: String?
    public var sent = 0
    /// Round trips (ms) of the acknowledged frames.
    public var roundTrips: [Int] = []
    /// How long (ms) each frame waited in OpenZWave's send queue before it left.
    public var queueWaits: [Int] = []

    public init(node: Int, status: Status) {
        self.node = node
        self.status = status
    }

    /// How a node's check went.
    public enum Status: String, Sendable, Hashable {
        /// Every frame was sent.
        case tested
        /// A sleeping battery node: nothing sent, not a failure.
        case asleep
        /// The library refused to send.
        case unreachable
        /// A frame waited the queue limit in the library's queue and never left: the check of this node stopped
        /// there, with nothing counted for that frame.
        case queueBlocked = "queue_blocked"
    }

    public var acknowledged: Int { roundTrips.count }
    public var failed: Int { sent - acknowledged }

    /// The mean round trip of the acknowledged frames (nil: none).
    public var meanRoundTrip: Double? {
        roundTrips.isEmpty ? nil : Double(roundTrips.reduce(0, +)) / Double(roundTrips.count)
    }

    /// The link's 0-10 rating (nil: nothing sent).
    public var rating: Int? { HealthRating.rating(sent: sent, failed: failed, meanRTT: meanRoundTrip) }
}

/// How one NoOperation frame of a health check ended (the `health_check_frame` event).
public struct HealthFrame: Sendable, Hashable {
    public let node: Int
    /// The frame's number, 1...`of`.
    public let frame: Int
    public let of: Int
    /// Its round trip in milliseconds, when acknowledged.
    public let roundTrip: Int?
    /// How long it waited in the library's send queue, in milliseconds, when it left.
    public let queued: Int?

    public init(node: Int, frame: Int, of: Int, roundTrip: Int?, queued: Int?) {
        self.node = node
        self.frame = frame
        self.of = of
        self.roundTrip = roundTrip
        self.queued = queued
    }
}
