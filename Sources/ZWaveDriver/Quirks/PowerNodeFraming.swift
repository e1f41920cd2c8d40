internal import BridgeCore
internal import Logging

/// The Greenwave PowerNode 6's framing: the device puts the socket number in the destination endpoint byte of its
/// reports, and OpenZWave 1.6 then files every one of them under instance 1.
///
/// For an adopted node (its `DeviceProfile` says `endpointInDestinationByte`: the PowerNode 6), a Switch Binary or
/// Meter report on instance 1 is attributed to the socket the bridge is waiting for (after a command, or during a
/// sweep), inside an attribution window that commands and sweeps of the node take in turn. An unsolicited one is never published as socket 1's: it asks for a debounced
/// sweep that re-reads every socket one at a time (`PowerNodeFraming+Sweep`). The end of the node's interview sweeps
/// at once (no debounce).
///
/// Owns the adopted nodes and the sweep scheduling (requests, debounce, deferred meter reads); each node's
/// attribution window (who holds it, who waits for it, the socket it expects, the sweep's current read) is an
/// `AttributionWindows`.
@ZWaveBackendActor
final class PowerNodeFraming: DeviceQuirk {
    let driver: OpenZWave
    let reports: ReportWaiter
    let logger: Logger
    /// How long an unsolicited report waits for its sweep, so that a burst of reports costs one sweep.
    let sweepDebounce: Duration

    /// The PowerNodes on the network.
    var nodes: Set<NodeID> = []
    /// Each node's attribution window: who holds it, who waits for it, the socket and the sweep's read it expects.
    let windows = AttributionWindows()
    /// Nodes with a debounced sweep pending (cleared when any full sweep starts), and when each node's last full
    /// sweep started: a pending sweep asked for before then is skipped (that sweep already read every socket).
    var sweepRequested: Set<NodeID> = []
    var lastFullSweep: [NodeID: ContinuousClock.Instant] = [:]
    /// Whether the library finished its start-up queries of the network (AllNodesQueried); until then a node's
    /// sweep after its interview reads only the switches and its meters wait (in `metersDeferred`), so the states
    /// of the whole network come first.
    var networkQueried = false
    var metersDeferred: Set<NodeID> = []
    let (sweeps, sweepContinuation) = AsyncStream.makeStream(of: SweepRequest.self, bufferingPolicy: .unbounded)

    nonisolated init(driver: OpenZWave, reports: ReportWaiter, logger: Logger, sweepDebounce: Duration) {
        self.driver = driver
        self.reports = reports
        self.logger = logger
        self.sweepDebounce = sweepDebounce
    }

    func observe(_ change: NetworkChange) {
        switch change {
        case .identified(let info):
            if DeviceProfile.profile(manufacturer: info.manufacturerID, type: info.productType, id: info.productID)?
                .endpointInDestinationByte == true, nodes.insert(info.node).inserted
            {
                logger.info(
                    "PowerNode endpoint quirk: reports on instance 1 are attributed per socket",
                    metadata: ["node": "\(info.node.rawValue)"])
            }
        case .interviewCompleted(let node):
            if nodes.contains(node) { sweepAfterInterview(node) }
        case .queriesStarted:
            networkQueried = false
        case .queriesEnded:
            networkQueriesEnded()
        case .removed(let node):
            nodes.remove(node)
        }
    }

    /// A socket's switch or meter report of a PowerNode: attributed to the socket its window expects; withheld (and
    /// a sweep asked for) when it is unsolicited or not the answer to the sweep's read.
    func attribute(_ report: ValueReport) -> ReportAttribution {
        let id = report.value.id
        let socketValue = id.commandClass == CommandClass.switchBinary || id.commandClass == CommandClass.meter
        guard nodes.contains(id.node), socketValue else { return .asReported }
        if report.initial {
            return .ignored  // the sweep after the interview reads every socket
        }
        guard id.instance == 1 else { return .asReported }
        guard report.publishable else {
            return .withheld  // a value the bridge does not publish (e.g. the meter's "exporting" flag)
        }
        if let read = windows.sweepRead[id.node] {
            guard read.commandClass == id.commandClass, read.index == id.index, !read.answered else {
                // Not the answer to the sweep's read (another value, or a second report of it): an unsolicited
                // report of some socket, arriving in the window. Indistinguishable from the answer when it comes
                // first, so whatever was attributed is checked by reading every socket again.
                logger.debug(
                    "unattributable PowerNode report during a sweep",
                    metadata: ["node": "\(id.node.rawValue)", "value": "\(id.commandClass)/\(id.index)"])
                requestSweep(id.node, nodeReady: report.nodeReady)
                return .withheld
            }
            windows.sweepRead[id.node]?.answered = true
        }
        guard let socket = windows.expectedSocket[id.node] else {
            // Unsolicited (or the library's cached/initial value): it may be any socket's. Never publish it as
            // socket 1's; re-read every socket instead.
            requestSweep(id.node, nodeReady: report.nodeReady)
            return .withheld
        }
        return .instance(socket)
    }

    /// A socket's switch command holds the node's window, so that the report it causes is attributed to it.
    func sendSwitch(
        to node: NodeID, instance: UInt8, _ send: () async throws(CommandFailure) -> PendingConfirmation?
    ) async throws(CommandFailure) {
        guard nodes.contains(node) else {
            _ = try await send()
            return
        }
        await openAttributionWindow(node)
        windows.expectedSocket[node] = instance
        defer {
            windows.expectedSocket[node] = nil
            closeAttributionWindow(node)
        }
        guard let sent = try await send() else { return }
        if reports.generation(of: sent.key) <= sent.before + 1 {
            // The library's verifying Get is answered on instance 1 as well: keep this socket's window open for it,
            // so it cannot land in the next command's or sweep's window as another socket's.
            _ = await reports.wait(for: sent.key, after: sent.before + 1, timeout: .seconds(1))
        }
    }

    /// A socket's `refresh` is a sweep of that socket.
    func refresh(_ node: NodeID, instance: UInt8) async -> Bool {
        guard nodes.contains(node) else { return false }
        await sweep(node, sockets: [instance])
        return true
    }

    /// Waits until no command or sweep holds `node`'s attribution window, then holds it.
    func openAttributionWindow(_ node: NodeID) async {
        await windows.open(node)
    }

    /// Hands the window to the next waiter, or frees it.
    func closeAttributionWindow(_ node: NodeID) {
        windows.close(node)
    }
}
