/// What the Z-Wave side reports: OpenZWave notifications as typed values, plus the driver's own
/// supervision events (`adapterLost`, `adapterRecovered`).
public enum ZWaveEvent: Sendable, Hashable {
    /// The controller answered the init sequence (`Type_DriverReady`).
    case driverReady(home: HomeID, controller: NodeID)
    /// The driver could not start or its port failed (`Type_DriverFailed`).
    case driverFailed
    /// The driver is gone (`Type_DriverRemoved`), on request or after an error.
    case driverRemoved
    /// All nodes and values of the driver were dropped (`Type_DriverReset`).
    case driverReset
    /// A node not in the cache appeared (`Type_NodeNew`).
    case nodeNew(NodeID)
    case nodeAdded(NodeID)
    case nodeRemoved(NodeID)
    /// The device was reset locally and left the network (`Type_NodeReset`).
    case nodeReset(NodeID)
    case nodeProtocolInfo(NodeID)
    case nodeNaming(NodeID)
    case essentialQueriesComplete(NodeID)
    /// The node's interview is complete (`Type_NodeQueriesComplete`).
    case nodeReady(NodeID)
    case valueAdded(ZWaveValue)
    /// The value changed (`Type_ValueChanged`).
    case valueChanged(ZWaveValue)
    /// The node reported the value again, unchanged (`Type_ValueRefreshed`).
    case valueRefreshed(ZWaveValue)
    case valueRemoved(ZWaveValueID)
    /// A Scene Activation Set from a node (`Type_SceneEvent`), e.g. an FGD212 S2 click.
    case sceneEvent(NodeID, sceneID: UInt8)
    /// A Basic Set from a node (`Type_NodeEvent`).
    case nodeEvent(NodeID, value: UInt8)
    /// The library presumes the node dead (notification code 5).
    case nodeDead(NodeID)
    /// The node answered again (notification code 6).
    case nodeAlive(NodeID)
    /// A message to the node timed out (notification code 1).
    case nodeTimeout(NodeID)
    case nodeAwake(NodeID)
    case nodeAsleep(NodeID)
    /// A NoOperation frame to the node ended (acknowledged or not: its statistics tell).
    case noOperationCompleted(NodeID)
    /// The node's association group changed.
    case group(NodeID, index: UInt8)
    case awakeNodesQueried
    case allNodesQueried(someDead: Bool)
    /// A state change of a controller command (inclusion, exclusion, heal...).
    case controllerCommand(ZWaveControllerUpdate)
    /// `Type_UserAlerts` (out-of-date config files, unsupported controller...), OpenZWave's code.
    case userAlert(NodeID, code: Int)
    /// The stick stopped answering or its port failed; the driver is being restarted with backoff.
    case adapterLost(reason: String)
    /// The driver became ready again after `adapterLost`.
    case adapterRecovered
}
