/// An emulated Z-Wave network: the stick's home id and its nodes.
public struct NetworkDescription: Sendable, Equatable {
    /// The home id the stick reports (MEMORY_GET_ID).
    public var homeID: UInt32
    /// The slaves, including not-yet-included (`joining`) ones.
    public var nodes: [NodeDescription]
    /// Emulated seconds per real second, for energy accumulation and periodic reports.
    public var timeScale: Double

    /// A network with `nodes` behind a stick with `homeID`.
    public init(homeID: UInt32 = 0xC0FF_EE01, nodes: [NodeDescription], timeScale: Double = 1) {
        self.homeID = homeID
        self.nodes = nodes
        self.timeScale = timeScale
    }
}
