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
