/// An emulated Z-Wave network: the stick's home id and its nodes.
public struct NetworkDescription: Sendable, Equatable {
    /// The home id the stick reports (MEMORY_GET_ID).
    public var homeID: UInt32
    /// The slaves, including not-yet-included (`joining`) ones.
    public var nodes: [NodeDescription]
    /// Emulated seconds per real second, for energy accumulation and periodic reports.
    public var timeScale: Double
    /// Whether the stick supports the extended transmit status report (as 500 and 700 series sticks do): it then
    /// lists SERIAL_API_SETUP among its functions and, once enabled, reports each frame's route. Off, the stick is
    /// one that reports no route.
    public var txStatusReport: Bool

    /// A network with `nodes` behind a stick with `homeID`.
    public init(
        homeID: UInt32 = 0xC0FF_EE01, nodes: [NodeDescription], timeScale: Double = 1, txStatusReport: Bool = false
    ) {
        self.homeID = homeID
        self.nodes = nodes
        self.timeScale = timeScale
        self.txStatusReport = txStatusReport
    }
}

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
    /// The nodes it hears directly (1 = the controller); nil: the controller only. Links count both ways
    /// (``NetworkDescription/neighborTable``).
    public var neighbors: [UInt8]?
    /// Initial temperature (°C) of a node with a temperature sensor (multisensor6, fgdw002, spirit).
    public var temperature: Double?
    /// Initial heating setpoint (°C) of a thermostat (spirit).
    public var setpoint: Double?
    /// Initial battery level (%) of a battery node.
    public var battery: UInt8?

    /// A node; every field but `id` and `kind` has the device's factory default.
    public init(
        id: UInt8, kind: NodeKind, name: String? = nil, level: UInt8 = 0, switches: [Bool] = [],
        loads: [Double] = [], realFraming: Bool = true, sceneActivation: Bool = false,
        joinsAs: NodeKind = .binarySwitch, joinAfter: Double? = nil, neighbors: [UInt8]? = nil,
        temperature: Double? = nil, setpoint: Double? = nil, battery: UInt8? = nil
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
        self.neighbors = neighbors
        self.temperature = temperature
        self.setpoint = setpoint
        self.battery = battery
    }
}

/// The kinds of emulated node a network description can name.
public enum NodeKind: String, Sendable, CaseIterable, Codable {
    /// Fibaro Dimmer 2 (FGD212).
    case fgd212
    /// Greenwave PowerNode 6.
    case powernode6
    /// A plain plug-in binary switch (Everspring AN157).
    case binarySwitch = "binary_switch"
    /// Aeotec MultiSensor 6 (ZW100), a sleeping battery node.
    case multisensor6
    /// Fibaro Door/Window Sensor 2 (FGDW002), a sleeping battery node.
    case fgdw002
    /// Fibaro Roller Shutter 3 (FGR223).
    case fgr223
    /// Eurotronic Spirit Z-Wave Plus radiator thermostat (FLiRS).
    case spirit
    /// Aeotec WallMote Quad (ZW130), a sleeping battery node.
    case wallmoteQuad = "wallmote_quad"
    /// Danalock V2 BTZE door lock (FLiRS; without S0).
    case danalock
    /// A node that is not yet included and joins when the controller is in inclusion mode.
    case joining
}
