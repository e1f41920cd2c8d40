public import BridgeCore
internal import FoundationEssentials
public import Logging

/// The Z-Wave side of the bridge, for any device: turns `ZWaveEvent`s into `HardwareEvent`s
/// (`ZWaveBackend+Events`) and executes device commands through `OpenZWave` (`ZWaveBackend+Commands`).
///
/// A command returns when the device confirmed the new value (its report reached the library) or after
/// `confirmationTimeout`, so the bridge's per-device queue keeps exactly one command on the radio per device and
/// coalesces the rest.
///
/// Owns the event stream and what it announced (identified and discovered devices), the nodes' interview state,
/// when each node was last seen, and the running controller command (`ZWaveBackend+Controller`). Hands off the
/// counting of reports and the waits for them (`ReportWaiter`), the desired configuration parameters
/// (`ConfigurationApplier`) and whatever a device does differently from the standard (a `DeviceQuirk`, `Quirks/`:
/// the Greenwave PowerNode 6's framing). All of them share the `ZWaveBackendActor`.
@ZWaveBackendActor
public final class ZWaveBackend: DeviceBackend {
    public nonisolated let adapter = Adapter.zwave
    /// Hardware events for the bridge; single consumer.
    public nonisolated let events: AsyncStream<HardwareEvent>
    let continuation: AsyncStream<HardwareEvent>.Continuation
    let driver: OpenZWave
    let configured: [ZWaveDeviceConfig]
    let logger: Logger
    let reports: ReportWaiter
    let configuration: ConfigurationApplier
    let quirk: any DeviceQuirk

    var identified: Set<DeviceSource> = []
    var discovered: Set<DeviceSource> = []
    /// What each identified or discovered device is, and the nodes that have a Meter (every device of such a node
    /// is metered: a PowerNode reports all its sockets' meters on instance 1).
    var kinds: [DeviceSource: DeviceKind] = [:]
    var meteredNodes: Set<Int> = []
    /// The running controller command (inclusion, exclusion, failed-node removal), if any.
    var session: ControllerSession?
    var sessionCounter = 0
    /// A controller command that was cancelled as the bridge stopped, until the controller confirms it (its
    /// session ended at once: nobody was left to wait); `leaveControllerMode()` waits for the confirmation.
    var awaitingStopConfirmation: ControllerSession.Kind?
    /// Device commands waiting for the controller command to end (the library sends nothing meanwhile).
    let held = HeldCommands()
    /// Nodes whose interview completed (`nodeReady`) since the last re-interview started.
    var readyNodes: Set<NodeID> = []
    /// Nodes OpenZWave has added (from its cache or the controller's list), until they leave the network.
    var knownNodes: Set<NodeID> = []
    /// Nodes being re-interviewed, until when: OpenZWave may drop and re-add them
    /// (`Type_NodeRemoved`/`NodeAdded`), which is not a removal from the network.
    var refreshing: [NodeID: ContinuousClock.Instant] = [:]
    /// Nodes whose interview did not finish: controlled with Basic Set until it does.
    var basicOnly: Set<NodeID> = []
    var lastSeen = LastSeen()
    var mesh = MeshState()
    /// Whether a `health_check` runs (one at a time; inclusion and exclusion wait for its end).
    var healthCheckRunning = false
    /// `ping_silent_after`: how long a mains-powered node may stay silent before it gets a NoOperation frame (nil: off),
    /// and since when the bridge listens (the silence of a node that never reported counts from there).
    let pingSilentAfter: Duration?
    let listeningSince = ContinuousClock.now
    /// When each node last got a silence ping, so a silent (or dead) node gets one per `ping_silent_after`.
    var pingedAt: [NodeID: ContinuousClock.Instant] = [:]
    let work: AsyncStream<Work>
    let workContinuation: AsyncStream<Work>.Continuation

    /// Work that waits for the driver, off the event loop, one item at a time.
    enum Work: Sendable {
        case details(NodeID)
        case applyConfiguration(NodeID)
    }

    /// - Parameters:
    ///   - confirmationTimeout: how long a command waits for the device's report.
    ///   - sweepDebounce: how long a PowerNode's unsolicited report waits for the re-read of its sockets.
    public nonisolated init(
        driver: OpenZWave, devices: [ZWaveDeviceConfig], logger: Logger,
        confirmationTimeout: Duration = .seconds(3), sweepDebounce: Duration = .milliseconds(300),
        pingSilentAfter: Duration? = nil
    ) {
        self.pingSilentAfter = pingSilentAfter
        self.driver = driver
        self.configured = devices
        self.logger = logger
        let reports = ReportWaiter(timeout: confirmationTimeout)
        self.reports = reports
        configuration = ConfigurationApplier(devices: devices, driver: driver, reports: reports, logger: logger)
        quirk = PowerNodeFraming(driver: driver, reports: reports, logger: logger, sweepDebounce: sweepDebounce)
        (events, continuation) = AsyncStream.makeStream(of: HardwareEvent.self, bufferingPolicy: .unbounded)
        (work, workContinuation) = AsyncStream.makeStream(of: Work.self, bufferingPolicy: .unbounded)
    }

    /// How long a command waits for the device's report.
    var confirmationTimeout: Duration { reports.timeout }

    /// Maps driver events until the driver's event stream ends (or the task is cancelled).
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await item in self.work {
                    switch item {
                    case .details(let node): await self.publishDetails(node)
                    case .applyConfiguration(let node): await self.applyConfiguration(node)
                    }
                }
            }
            group.addTask { await self.quirk.run() }
            if let silence = pingSilentAfter { group.addTask { await self.pingSilentNodes(after: silence) } }
            for await event in driver.events { await handle(event) }
            group.cancelAll()  // the events ended: pending work and the quirk's pending sweeps are moot
        }
        continuation.finish()
    }

    /// Applies the desired configuration parameters and associations of `node` and reports each.
    func applyConfiguration(_ node: NodeID) async {
        if configuration.wantsParameters(node) { continuation.yield(.event(await configuration.apply(node))) }
        if wantsAssociations(node) { continuation.yield(.event(.associations(await applyAssociations(node)))) }
    }
}

extension DeviceSource {
    /// The Z-Wave node of a source, or nil.
    var node: Int? {
        if case .zwave(let node, _) = self { return node }
        return nil
    }

    /// The multi-channel endpoint (instance) of a Z-Wave source, or nil for the node itself and for CEC.
    var endpoint: Int? {
        if case .zwave(_, let instance) = self { return instance }
        return nil
    }
}

/// The isolation domain of the Z-Wave side of the bridge: `ZWaveBackend` and the types it hands state to
/// (`ReportWaiter`, `ConfigurationApplier`, the device quirks in `Quirks/`).
///
/// Separate types, one domain: a report's attribution to an endpoint, the count that confirms a command and a
/// command's attribution window change in one synchronous step, as when they were the fields of one actor, and
/// each type's tasks (timeouts, debounced sweeps) reach its state without a hop.
@globalActor
public actor ZWaveBackendActor {
    public static let shared = ZWaveBackendActor()

    private init() {}
}
