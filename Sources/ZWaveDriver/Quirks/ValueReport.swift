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
