internal import FoundationEssentials

/// When each node last reported a value, and when that was last put in the inventory (its `last_seen`), so the
/// inventory is refreshed at most once per `resolution`. Intervals are measured on the monotonic clock (a Pi has no
/// battery clock: NTP moves the wall clock by hours at boot); the wall-clock time is kept only to be shown.
struct LastSeen {
    /// How often a node's `last_seen` is refreshed in the inventory (each refresh republishes it).
    static let resolution: Duration = .seconds(60)

    /// A report's time: on the monotonic clock, and as the wall clock showed it.
    struct Moment {
        let instant: ContinuousClock.Instant
        let date: Date
    }

    private var seen: [NodeID: Moment] = [:]
    private var published: [NodeID: ContinuousClock.Instant] = [:]

    /// `node` reported a value at `now`; true when its inventory entry is due (and counted as refreshed now).
    mutating func note(_ node: NodeID, at now: Moment) -> Bool {
        seen[node] = now
        if let last = published[node], now.instant - last < Self.resolution { return false }
        published[node] = now.instant
        return true
    }

    /// When `node` last reported (monotonic), nil if it never did.
    func lastReport(_ node: NodeID) -> ContinuousClock.Instant? { seen[node]?.instant }

    /// When `node` last reported, as the inventory entry being published now shows it (wall clock).
    mutating func publishing(_ node: NodeID) -> Date? {
        guard let moment = seen[node] else { return nil }
        published[node] = moment.instant
        return moment.date
    }
}
