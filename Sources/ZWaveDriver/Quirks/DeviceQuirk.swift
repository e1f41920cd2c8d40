internal import BridgeCore

/// A device's departure from what the generic Z-Wave code assumes, kept in a type of its own: `ZWaveBackend` calls
/// its quirk at these points and knows nothing of the device behind it.
///
/// A quirk adopts the nodes it is for (from their identity, `NetworkChange.identified`), passes every other node
/// through unchanged, owns its state and runs its own scheduled work (`run`).
@ZWaveBackendActor
protocol DeviceQuirk: AnyObject, Sendable {
    /// Follows the network: identities, interviews, the library's start-up queries, removals.
    func observe(_ change: NetworkChange)
    /// Where a value report belongs: its own endpoint, another one, or none.
    func attribute(_ report: ValueReport) -> ReportAttribution
    /// Runs `send`: a Switch Binary Set to `instance` of `node` and the wait for its confirmation (`nil`: nothing
    /// was sent).
    func sendSwitch(
        to node: NodeID, instance: UInt8, _ send: () async throws(CommandFailure) -> PendingConfirmation?
    ) async throws(CommandFailure)
    /// `refresh` of `instance` of `node`: true when the quirk re-read it, false when the generic re-read applies.
    func refresh(_ node: NodeID, instance: UInt8) async -> Bool
    /// Runs the quirk's scheduled work until the task is cancelled.
    func run() async
}

/// A value report as the generic Z-Wave code sees it, for a `DeviceQuirk` to attribute.
struct ValueReport: Sendable {
    let value: ZWaveValue
    /// The library created the value (from its cache or a default): nothing was received from the device.
    let initial: Bool
    /// Whether the generic mapping publishes the value (it has a state update).
    let publishable: Bool
    /// Whether the node's interview completed (since its last re-interview started).
    let nodeReady: Bool
}

/// Where a value report belongs, as a `DeviceQuirk` decides (`DeviceQuirk.attribute`).
enum ReportAttribution: Sendable, Equatable {
    /// Its own endpoint: the generic mapping applies.
    case asReported
    /// The endpoint (OpenZWave instance) given: counted and published there.
    case instance(UInt8)
    /// Counted for its own value (a wait for that value sees it), not published.
    case withheld
    /// Neither counted nor published.
    case ignored
}

/// What the generic Z-Wave code tells a `DeviceQuirk` about the network (`DeviceQuirk.observe`).
enum NetworkChange: Sendable {
    /// A node's identity was read (`OpenZWave.nodeInfo`); again on every change of its details.
    case identified(ZWaveNodeInfo)
    /// A node's interview completed (`nodeReady`).
    case interviewCompleted(NodeID)
    /// The library (re)started its start-up queries of the network (`driverReady`).
    case queriesStarted
    /// The library finished them (`awakeNodesQueried`, `allNodesQueried`).
    case queriesEnded
    /// A node left the network.
    case removed(NodeID)
}
