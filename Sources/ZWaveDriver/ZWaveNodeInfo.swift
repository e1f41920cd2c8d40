/// What OpenZWave knows about a node (`Manager::GetNode*`, `IsNode*`).
public struct ZWaveNodeInfo: Sendable, Hashable {
    public let node: NodeID
    public let manufacturerName: String
    public let productName: String
    /// Hex strings as OpenZWave gives them, e.g. `0x010f`.
    public let manufacturerID: String
    public let productType: String
    public let productID: String
    /// The device type label, e.g. `Multilevel Power Switch`.
    public let type: String
    /// The interview stage, e.g. `Complete`, `Probe`.
    public let queryStage: String
    public let name: String
    public let location: String
    public let isFailed: Bool
    public let isListening: Bool
    public let isAwake: Bool
    public let isFrequentListening: Bool
    public let isZWavePlus: Bool
    public let infoReceived: Bool
    /// The device class's generic and specific types (0x11 Multilevel Switch, 0x07 motor control class C), 0 while
    /// the library has not read the node's protocol info.
    public let generic: UInt8
    public let specific: UInt8
}
