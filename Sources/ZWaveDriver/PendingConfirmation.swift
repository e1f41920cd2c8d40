/// A Set handed to OpenZWave, to be confirmed by the device: the value whose report confirms it and that value's
/// generation (`ReportWaiter`) before the Set.
struct PendingConfirmation: Sendable {
    let key: ZWaveValueKey
    let before: Int
}
