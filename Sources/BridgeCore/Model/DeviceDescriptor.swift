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
    /// Whether `kind` and `metered` are what the hardware reported (false: a first guess from devices.toml that
    /// the node's interview, or the network cache, may correct).
    public let kindKnown: Bool

    public init(
        address: DeviceAddress, kind: DeviceKind, source: DeviceSource, metered: Bool = false,
        inputs: [String: String] = [:], configured: Bool = true, kindKnown: Bool = true
    ) {
        self.address = address
        self.kind = kind
        self.source = source
        self.metered = metered
        self.inputs = inputs
        self.configured = configured
        self.kindKnown = kindKnown
    }
}
