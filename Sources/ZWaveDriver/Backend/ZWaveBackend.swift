public import BridgeCore
internal import FoundationEssentials
public import Logging

/// The Z-Wave side of the bridge, for any device: turns `ZWaveEvent`s into `HardwareEvent`s
/// (`ZWaveBackend+Events`), executes device commands through `OpenZWave` (`ZWaveBackend+Commands`) and dispatches
/// the Z-Wave requests (`ZWaveBackend+Requests`).
///
/// A command returns when the device confirmed the new value (its report reached the library) or after
/// `confirmationTimeout`, so the bridge's per-device queue keeps exactly one command on the radio per device and
/// coalesces the rest.
///
/// Owns the event stream, where each event goes (`EventRouter`: the stream, or the sink of the request working on the
/// event's node) and what it announced (`DeviceAnnouncements`: identified and discovered devices). Composes
/// the owners of the rest, each holding its own state, one folder each:
/// - `Controller/`: the running controller command and the device commands it holds (`ControllerSessions`);
/// - `Interview/`: the nodes' interviews, when each node was last seen and the follow-up work (`InterviewTracker`),
///   and the battery nodes that sleep between wake-ups (`SleepingNodes`: `asleep`, dead after missed wake-ups);
/// - `Mesh/`: neighbours, statistics, the health check and the pings of silent nodes (`MeshMonitor`);
/// - `Configuration/`: configuration parameters and associations (`ConfigurationApplier`), and the `set_config`s
///   held for sleeping nodes (`WakeUpQueue`, kept across a restart);
/// - `Quirks/`: whatever a device does differently from the standard (a `DeviceQuirk`: the Greenwave PowerNode 6's
///   framing);
/// and hands the counting of reports and the waits for them to `ReportWaiter`. All of them share the
/// `ZWaveBackendActor`.
@ZWaveBackendActor
public final class ZWaveBackend: DeviceBackend {
    public nonisolated var adapter: Adapter { .zwave }
    /// Hardware events for the bridge; single consumer.
    public nonisolated let events: AsyncStream<HardwareEvent>
    /// Where each event goes: `events`, or the request working on its node.
    let router: EventRouter
    let driver: OpenZWave
    let logger: Logger
    let reports: ReportWaiter
    let quirk: any DeviceQuirk
    /// The devices the event stream identified or discovered.
    let announced: DeviceAnnouncements
    let sessions: ControllerSessions
    let interview: InterviewTracker
    let sleeping: SleepingNodes
    let mesh: MeshMonitor
    let configuration: ConfigurationApplier

    /// - Parameters:
    ///   - confirmationTimeout: how long a command waits for the device's report.
    ///   - sweepDebounce: how long a PowerNode's unsolicited report waits for the re-read of its sockets.
    public nonisolated init(
        driver: OpenZWave, devices: [ZWaveDeviceConfig], logger: Logger,
        confirmationTimeout: Duration = .seconds(3), sweepDebounce: Duration = .milliseconds(300),
        pingSilentAfter: Duration? = nil
    ) {
        self.driver = driver
        self.logger = logger
        let reports = ReportWaiter(timeout: confirmationTimeout)
        self.reports = reports
        quirk = PowerNodeFraming(driver: driver, reports: reports, logger: logger, sweepDebounce: sweepDebounce)
        let (events, continuation) = AsyncStream.makeStream(of: HardwareEvent.self, bufferingPolicy: .unbounded)
        self.events = events
        let router = EventRouter(stream: continuation)
        self.router = router
        announced = DeviceAnnouncements(configured: devices, router: router)
        let sessions = ControllerSessions(driver: driver, logger: logger, router: router)
        self.sessions = sessions
        let interview = InterviewTracker(driver: driver)
        self.interview = interview
        let sleeping = SleepingNodes(router: router, interview: interview, logger: logger)
        self.sleeping = sleeping
        configuration = ConfigurationApplier(
            devices: devices, driver: driver, reports: reports, router: router, sleeping: sleeping, logger: logger)
        mesh = MeshMonitor(
            driver: driver, reports: reports, logger: logger, router: router, interview: interview,
            sessions: sessions, pingSilentAfter: pingSilentAfter)
    }

    /// How long a command waits for the device's report.
    var confirmationTimeout: Duration { reports.timeout }

    /// Maps driver events until the driver's event stream ends (or the task is cancelled).
    public func run() async {
        configuration.wakeUpQueue.load()
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await item in self.interview.work {
                    switch item {
                    case .details(let node): await self.publishDetails(node)
                    case .applyConfiguration(let node): await self.applyConfiguration(node)
                    }
                }
            }
            group.addTask { await self.quirk.run() }
            group.addTask { await self.sleeping.watchWakeUps() }
            if let silence = mesh.pingSilentAfter { group.addTask { await self.mesh.pingSilentNodes(after: silence) } }
            for await event in driver.events { await handle(event) }
            group.cancelAll()  // the events ended: pending work and the quirk's pending sweeps are moot
        }
        router.finish()
    }

    /// Applies the desired configuration parameters and associations of `node` and reports each.
    func applyConfiguration(_ node: NodeID) async {
        if configuration.wantsParameters(node) { router.emit(await configuration.apply(node)) }
        if let event = await configuration.applyWakeUpInterval(node) { router.emit(event) }
        if configuration.wantsAssociations(node) {
            router.emit(.associations(await configuration.applyAssociations(node)))
        }
    }

    /// Before the driver is torn down (the daemon stops): a running inclusion or exclusion is cancelled on the
    /// controller, and the controller's confirmation of that cancel is awaited (`ControllerSessions`).
    public func leaveControllerMode() async {
        await sessions.leaveControllerMode()
    }
}

extension DeviceSource {
    /// The Z-Wave node of a source, or nil.
    var node: Int? { zwaveNode }

    /// The multi-channel endpoint (instance) of a Z-Wave source, or nil for the node itself and for CEC.
    var endpoint: Int? {
        if case .zwave(_, let instance) = self { return instance }
        return nil
    }
}

/// The isolation domain of the Z-Wave side of the bridge: `ZWaveBackend` and the owners it composes
/// (`ControllerSessions`, `InterviewTracker`, `MeshMonitor`, `ConfigurationApplier`, `DeviceAnnouncements`,
/// `EventRouter`, `ReportWaiter`, the device quirks in `Quirks/`).
///
/// Separate types, one domain: a report's attribution to an endpoint, the count that confirms a command and a
/// command's attribution window change in one synchronous step, as when they were the fields of one actor, and
/// each type's tasks (timeouts, debounced sweeps) reach its state without a hop.
@globalActor
public actor ZWaveBackendActor {
    public static let shared = ZWaveBackendActor()

    private init() {}
}
