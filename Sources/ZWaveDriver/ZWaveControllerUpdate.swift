/// One `Type_ControllerCommand` notification: which command, its new state, the error if any and the
/// node involved (the included/excluded node, or the node the command was for; 255 when none).
public struct ZWaveControllerUpdate: Sendable, Hashable {
    /// OpenZWave's `Driver::ControllerCommand` number (1 AddDevice, 4 RemoveDevice, 5 RemoveFailedNode...).
    public let command: UInt8
    public let state: State
    public let error: ControllerError
    public let node: NodeID

    public init(command: UInt8, state: State, error: ControllerError, node: NodeID) {
        self.command = command
        self.state = state
        self.error = error
        self.node = node
    }

    /// `Driver::ControllerState`.
    public enum State: UInt8, Sendable, Hashable {
        case normal = 0, starting, cancel, error, waiting, sleeping, inProgress, completed, failed, nodeOK,
            nodeFailed, unknown = 255
    }

    /// `Driver::ControllerError`.
    public enum ControllerError: UInt8, Sendable, Hashable {
        case none = 0, buttonNotFound, nodeNotFound, notBridge, notSUC, notSecondary, notPrimary, isPrimary,
            notFound, busy, failed, disabled, overflow, unknown = 255
    }
}
