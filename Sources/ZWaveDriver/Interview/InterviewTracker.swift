internal import BridgeCore
internal import FoundationEssentials

/// The nodes' interviews: which nodes the library knows, which completed their interview, which are being
/// re-interviewed and which are controlled with Basic Set until they do; the interview's progress as events
/// (`interview_progress`, `interview_completed`, `interview_failed`, through the sink of the request that watches it);
/// when each node was last seen (`LastSeen`); and
/// the work that follows a node's interview or report off the event loop (its details, its configuration).
///
/// Shares the `ZWaveBackendActor` with `ZWaveBackend`, which composes it.
@ZWaveBackendActor
final class InterviewTracker {
    let driver: OpenZWave
    /// Nodes whose interview completed (`nodeReady`) since the last re-interview started.
    private(set) var readyNodes: Set<NodeID> = []
    /// Nodes OpenZWave has added (from its cache or the controller's list), until they leave the network.
    private(set) var knownNodes: Set<NodeID> = []
    /// Nodes being re-interviewed, until when: OpenZWave may drop and re-add them
    /// (`Type_NodeRemoved`/`NodeAdded`), which is not a removal from the network.
    private var refreshing: [NodeID: ContinuousClock.Instant] = [:]
    /// Nodes whose interview did not finish: controlled with Basic Set until it does.
    private(set) var basicOnly: Set<NodeID> = []
    private var lastSeen = LastSeen()
    /// Whether OpenZWave has queried the network since its driver became ready (`AwakeNodesQueried` or
    /// `AllNodesQueried`): until then a node may not be listed yet.
    private(set) var networkQueried = false
    /// Work that waits for the driver, off the event loop, one item at a time (`ZWaveBackend.run()` consumes it).
    let work: AsyncStream<Work>
    private let workContinuation: AsyncStream<Work>.Continuation

    /// Work that waits for the driver, off the event loop, one item at a time.
    enum Work: Sendable {
        case details(NodeID)
        case applyConfiguration(NodeID)
    }

    /// How long after a refresh a `Type_NodeRemoved` of the node is still taken as the library's reload.
    static let refreshGrace: Duration = .seconds(10)

    nonisolated init(driver: OpenZWave) {
        self.driver = driver
        (work, workContinuation) = AsyncStream.makeStream(of: Work.self, bufferingPolicy: .unbounded)
    }

    /// Queues `item` for `ZWaveBackend.run()`.
    func schedule(_ item: Work) {
        workContinuation.yield(item)
    }

    // MARK: - The library's view of the nodes

    /// The driver became ready (again): OpenZWave lists the network's nodes from now on.
    func driverReady() { networkQueried = false }

    /// OpenZWave has queried the network (the awake nodes, or all of them).
    func queried() { networkQueried = true }

    /// OpenZWave added `node` (`Type_NodeAdded`).
    func added(_ node: NodeID) {
        knownNodes.insert(node)
    }

    /// `node` completed its interview (`Type_NodeQueriesComplete`): it leaves Basic Set control.
    func ready(_ node: NodeID) {
        readyNodes.insert(node)
        basicOnly.remove(node)
    }

    /// Whether a `Type_NodeRemoved` of `node` is the re-interview's reload (it stays in the network).
    func isReloading(_ node: NodeID) -> Bool {
        refreshing[node].map { $0 > .now } ?? false
    }

    /// `node` left the network.
    func removed(_ node: NodeID) {
        readyNodes.remove(node)
        knownNodes.remove(node)
    }

    /// Marks `node` for Basic Set control (its interview did not finish).
    func controlWithBasicSet(_ node: NodeID) {
        basicOnly.insert(node)
    }

    // MARK: - Last seen

    /// A report arrived from `node`: remembers when, and refreshes the inventory at most once a minute.
    func noteSeen(_ node: NodeID) {
        if lastSeen.note(node, at: LastSeen.Moment(instant: .now, date: Date())) {
            workContinuation.yield(.details(node))
        }
    }

    /// When `node` last reported (monotonic), nil if it never did.
    func lastReport(_ node: NodeID) -> ContinuousClock.Instant? { lastSeen.lastReport(node) }

    /// When `node` last reported, as the inventory entry being published now shows it (wall clock).
    func publishingLastSeen(_ node: NodeID) -> Date? { lastSeen.publishing(node) }

    // MARK: - Interview and re-interview

    /// The end of an interview: completed, or the stage it stopped at.
    struct InterviewResult: Sendable {
        let completed: Bool
        let stage: String
    }

    /// Reports the interview stage by stage through `progress` until the node is ready or `timeout` passes.
    func watch(_ node: NodeID, timeout: Duration, progress: RequestProgress) async -> InterviewResult {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var lastStage = ""
        while true {
            let stage = (try? await driver.nodeInfo(node))?.queryStage ?? ""
            if !stage.isEmpty, stage != lastStage {
                lastStage = stage
                progress.emit(.interviewProgress(node: Int(node.rawValue), stage: stage))
            }
            if readyNodes.contains(node), stage != "Complete" {
                readyNodes.remove(node)  // a stale completion of an interview the library restarted
            }
            if readyNodes.contains(node) || stage == "Complete" {
                let info = try? await driver.nodeInfo(node)
                progress.emit(
                    .interviewCompleted(
                        node: Int(node.rawValue), manufacturer: info?.manufacturerName ?? "",
                        product: info?.productName ?? ""))
                return InterviewResult(completed: true, stage: "Complete")
            }
            if clock.now >= deadline || Task.isCancelled {
                let reason =
                    "the interview did not finish within \(timeout); the node works for basic control, `refresh` retries"
                progress.emit(.interviewFailed(node: Int(node.rawValue), stage: lastStage, reason: reason))
                return InterviewResult(completed: false, stage: lastStage)
            }
            try? await Task.sleep(for: .milliseconds(200))
        }
    }

    /// `refresh`, first half: the node's re-interview starts (until `endRefresh(_:)`, a drop and re-add of the node
    /// is the library's reload).
    func startRefresh(_ node: NodeID) {
        readyNodes.remove(node)
        refreshing[node] = .now + .seconds(1_000_000_000)  // until it ends, then the grace
    }

    /// The refresh ended: a late drop/re-add of the reloaded node is still part of it for `refreshGrace`.
    func endRefresh(_ node: NodeID) {
        refreshing[node] = .now + Self.refreshGrace
    }

    /// Asks the library to re-interview `node` and waits until it started over.
    func reinterview(_ node: NodeID) async throws(RequestFailure) {
        do {
            try await driver.refreshNodeInfo(node: node)
        } catch {
            throw RequestFailure("refresh of \(node) failed: \(error)")
        }
        // The stage goes back to the start; wait until the library has left `Complete`, then forget any
        // completion of the previous interview that was still on its way.
        let restart = ContinuousClock().now.advanced(by: .seconds(2))
        while ContinuousClock().now < restart, (try? await driver.nodeInfo(node))?.queryStage == "Complete" {
            try? await Task.sleep(for: .milliseconds(50))
        }
        readyNodes.remove(node)
    }

    /// The node's identity, its interview result and its switch endpoints (for the devices.toml stanza).
    func inclusionResult(_ node: NodeID, interview: InterviewResult) async -> InclusionOutcome {
        let info = try? await driver.nodeInfo(node)
        return InclusionOutcome(
            node: Int(node.rawValue), manufacturer: info?.manufacturerName ?? "", product: info?.productName ?? "",
            manufacturerID: info?.manufacturerID ?? "", productType: info?.productType ?? "",
            productID: info?.productID ?? "", interviewCompleted: interview.completed, stage: interview.stage,
            switchInstances: Self.switchInstances(await driver.valueIDs(node: node)))
    }

    /// The instances of the switch values (Switch Binary or Multilevel, index 0), sorted, each once.
    static func switchInstances(_ values: [ZWaveValueID]) -> [Int] {
        let switches = values.filter {
            ($0.commandClass == CommandClass.switchBinary || $0.commandClass == CommandClass.switchMultilevel)
                && $0.index == 0
        }
        return Set(switches.map { Int($0.instance) }).sorted()
    }
}
