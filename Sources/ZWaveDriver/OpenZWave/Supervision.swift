internal import SystemSupport

/// The state of `OpenZWave`'s watchdog (`OpenZWave+Supervision`): the driver's phase and whether a driver is added,
/// the driver removals the bridge caused itself, the outage being reported, the restart attempts and their backoff,
/// the end of the cache-write deferral, and the wake-ups of the running watchdog, woken whenever the phase or the
/// deferral changes.
struct Supervision {
    var phase = OpenZWave.Phase.stopped {
        didSet { wakeups?.wake() }
    }
    var driverAdded = false
    /// DriverRemoved notifications we caused ourselves (the watchdog's remove), not to be treated as failure.
    var pendingRemovals = 0
    /// Why the adapter is lost, while it is.
    var outage: String?
    /// While OpenZWave's own cache writes are deferred: until when at most.
    var cacheDeferralDeadline: ContinuousClock.Instant? { didSet { wakeups?.wake() } }
    /// The watchdog's wake-ups while it runs (`OpenZWave.supervise()`).
    var wakeups: Wakeups?
    var restartAttempt = 0

    /// When the watchdog has something to do next without an event: the phase's deadline, or the end of the
    /// cache-write deferral.
    var nextDeadline: ContinuousClock.Instant? {
        let phaseDeadline: ContinuousClock.Instant? =
            switch phase {
            case .waitingForReady(let deadline): deadline
            case .failing(let until, _): until
            case .backingOff(let until): until
            case .ready, .stopped: nil
            }
        let deferral: ContinuousClock.Instant? = if case .ready = phase { cacheDeferralDeadline } else { nil }
        return [phaseDeadline, deferral].compactMap { $0 }.min()
    }

    /// Whether a failure of the driver now means the adapter was lost (not while stopping or backing off).
    var isSupervising: Bool {
        switch phase {
        case .ready, .waitingForReady: true
        case .stopped, .backingOff, .failing: false
        }
    }

    /// `restartBackoff * 2^attempt`, at most `maxRestartBackoff`; counts the attempt.
    mutating func backoff(_ configuration: ZWaveDriverConfiguration) -> Duration {
        let exponent = min(restartAttempt, 16)
        restartAttempt += 1
        let wait = configuration.restartBackoff * (1 << exponent)
        return min(wait, configuration.maxRestartBackoff)
    }
}
