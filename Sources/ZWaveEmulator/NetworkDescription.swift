/// An emulated Z-Wave network: the stick's home id and its nodes.
public struct NetworkDescription: Sendable, Equatable {
    public var homeID: UInt32
    public var nodes: [NodeDescription]
    /// Emulated seconds per real second, for energy accumulation and periodic reports.
    public var timeScale: Double

    public init(homeID: UInt32 = 0xC0FF_EE01, nodes: [NodeDescription], timeScale: Double = 1) {
        self.homeID = homeID
        self.nodes = nodes
        self.timeScale = timeScale
    }
}
