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
    /// Whether the quirk adopted `node`: its commands then take the normal path (`sendSwitch`, `refresh`), never
    /// `DeviceBackend.send`'s fast one.
    func adopted(_ node: NodeID) -> Bool
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
