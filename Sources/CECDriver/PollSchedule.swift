internal import SystemSupport

/// When `CECBackend` polls the TV's power: every `fastPoll` for `fastPeriod` after a command or a change, every
/// `slowPoll` otherwise; the poll loop's wake-ups (the next poll's time, and the start of a fast period) and how
/// often the loop has run.
struct PollSchedule {
    let fastPoll: Duration
    let slowPoll: Duration
    let fastPeriod: Duration
    private(set) var fastUntil = ContinuousClock.now
    /// The poll loop's wake-ups: the next poll's time, and the start of a fast period.
    let wakeups = Wakeups()
    /// How often the poll loop has run so far (tests read it).
    var passes = 0

    init(fastPoll: Duration, slowPoll: Duration, fastPeriod: Duration) {
        self.fastPoll = fastPoll
        self.slowPoll = slowPoll
        self.fastPeriod = fastPeriod
    }

    /// A command or a change: polling goes fast for a while, and the loop recomputes when it is due.
    mutating func markActive() {
        fastUntil = ContinuousClock.now.advanced(by: fastPeriod)
        wakeups.wake()
    }

    /// The time between polls at `now`.
    func interval(at now: ContinuousClock.Instant) -> Duration {
        now < fastUntil ? fastPoll : slowPoll
    }
}
