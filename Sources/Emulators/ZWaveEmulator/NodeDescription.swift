/// One node of an emulated network.
public struct NodeDescription: Sendable, Equatable {
    /// Node id (2…232).
    public var id: UInt8
    /// What device it is.
    public var kind: NodeKind
    /// A human label (for traces and the house network).
    public var name: String?
    /// Initial dimmer level 0-99 (FGD212).
    public var level: UInt8
    /// Initial switch states per endpoint (PowerNode: 6, binary switch: 1).
    public var switches: [Bool]
    /// Loads in W per endpoint (FGD212: the load at full brightness; PowerNode: per socket).
    public var loads: [Double]
    /// PowerNode: the real firmware framing (socket number in the destination endpoint byte) when true,
    /// the spec-correct framing when false.
    public var realFraming: Bool
    /// FGD212 parameter 28 (scene activation) initial value.
    public var sceneActivation: Bool
    /// Joining node: what it is once included.
    public var joinsAs: NodeKind
    /// Joining node: seconds after inclusion/exclusion mode starts until it joins/leaves by itself;
    /// nil = only on request (`ZWaveStickEmulator.pressNetworkButton`).
    public var joinAfter: Double?

    /// A node; every field but `id` and `kind` has the device's factory default.
    public init(
        id: UInt8, kind: NodeKind, name: String? = nil, level: UInt8 = 0, switches: [Bool] = [],
        loads: [Double] = [], realFraming: Bool = true, sceneActivation: Bool = false,
        joinsAs: NodeKind = .binarySwitch, joinAfter: Double? = nil
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.level = level
        self.switches = switches
        self.loads = loads
        self.realFraming = realFraming
        self.sceneActivation = sceneActivation
        self.joinsAs = joinsAs
        self.joinAfter = joinAfter
    }
}
