/// OpenZWave's counters for one node (`Manager::GetNodeStatistics`), since the library started.
public struct ZWaveNodeStatistics: Sendable, Hashable {
    public let node: NodeID
    /// Frames the controller sent to the node, those that failed, and the retries.
    public let sent: Int
    public let sentFailed: Int
    public let retries: Int
    /// Frames received from the node (duplicates and unsolicited ones counted apart too).
    public let received: Int
    public let receivedDuplicates: Int
    public let receivedUnsolicited: Int
    /// Round-trip times in milliseconds.
    public let averageRequestRTT: Int
    public let averageResponseRTT: Int
    /// OpenZWave's quality measure (0 until it has one).
    public let quality: Int
    /// When the last frame was sent and received, as OpenZWave writes it (empty: never).
    public let sentAt: String
    public let receivedAt: String
}
