/// A device the bridge serves: where it is in the topic tree, what it is, and where it lives.
public struct DeviceDescriptor: Sendable, Hashable {
    public let address: DeviceAddress
    public let kind: DeviceKind
    public let source: DeviceSource
    /// Metered devices publish `/power` and `/energy`.
    public let metered: Bool
    /// CEC TVs: input names to physical addresses (`a.b.c.d`).
    public let inputs: [String: String]
    /// Whether the device is in devices.toml (false: an `unassigned/node<N>` device).
    public let configured: Bool

    public init(
        address: DeviceAddress, kind: DeviceKind, source: DeviceSource, metered: Bool = false,
        inputs: [String: String] = [:], configured: Bool = true
    ) {
        self.address = address
        self.kind = kind
        self.source = source
        self.metered = metered
        self.inputs = inputs
        self.configured = configured
    }
}
