internal import BridgeCore
internal import FoundationEssentials
internal import Logging

/// The mesh and its health: each node's neighbours and hops (`MeshMonitor+Neighbors`, the `neighbors` request and
/// neighbour updates), every node's statistics (`MeshMonitor+NetworkStats`: `node_stats`, `network_stats`), the
/// `health_check` (`MeshMonitor+HealthCheck`) and the pings of silent mains-powered nodes
/// (`MeshMonitor+SilentNodes`, `ping_silent_after`).
///
/// Owns when each neighbour table was read, the running neighbour update, whether a health check runs and when each
/// silent node was last pinged. Reads the nodes the library knows and when each was last seen from the
/// `InterviewTracker`, and waits for no controller command (`ControllerSessions`). Shares the `ZWaveBackendActor`
/// with `ZWaveBackend`, which composes it.
@ZWaveBackendActor
final class MeshMonitor {
    let driver: OpenZWave
    let reports: ReportWaiter
    let logger: Logger
    let router: EventRouter
    let interview: InterviewTracker
    let sessions: ControllerSessions
    var neighbours = NeighbourState()
    /// Whether a `health_check` runs (one at a time; inclusion and exclusion wait for its end).
    var healthCheckRunning = false
    /// `ping_silent_after`: how long a mains-powered node may stay silent before it gets a NoOperation frame (nil: off),
    /// and since when the bridge listens (the silence of a node that never reported counts from there).
    let pingSilentAfter: Duration?
    let listeningSince = ContinuousClock.now
    /// When each node last got a silence ping, so a silent (or dead) node gets one per `ping_silent_after`.
    var pingedAt: [NodeID: ContinuousClock.Instant] = [:]

    nonisolated init(
        driver: OpenZWave, reports: ReportWaiter, logger: Logger, router: EventRouter,
        interview: InterviewTracker, sessions: ControllerSessions, pingSilentAfter: Duration?
    ) {
        self.driver = driver
        self.reports = reports
        self.logger = logger
        self.router = router
        self.interview = interview
        self.sessions = sessions
        self.pingSilentAfter = pingSilentAfter
    }

    /// `node` completed its interview, in which OpenZWave read its neighbour table.
    func tableRead(_ node: NodeID) {
        neighbours.readAt[node] = Date()
    }
}

/// What the bridge knows of the mesh beyond the library: when each node's neighbour table was read, and the running
/// neighbour update's progress.
struct NeighbourState {
    /// When the bridge saw each node's table read: the end of its interview (OpenZWave reads the table in it), or the
    /// end of a neighbour update.
    var readAt: [NodeID: Date] = [:]
    /// The node whose neighbour update runs, and the last state the controller reported for it.
    var updating: NodeID?
    var updateState: ZWaveControllerUpdate.State?
}
