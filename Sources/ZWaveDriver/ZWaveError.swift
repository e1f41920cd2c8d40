/// A failed driver call: which shim/OpenZWave call, which node (if any), why.
public struct ZWaveError: Error, Sendable, CustomStringConvertible {
    public let code: Code
    /// The C function of the shim (which names the OpenZWave call), or the driver method.
    public let call: String
    public let node: NodeID?
    /// The shim's message (`zw_last_error`), e.g. the OZWException text.
    public let message: String

    public init(_ code: Code, call: String, node: NodeID? = nil, message: String = "") {
        self.code = code
        self.call = call
        self.node = node
        self.message = message
    }

    public var description: String {
        var text = "\(call) failed"
        if let node { text += " for \(node)" }
        text += ": \(code)"
        if !message.isEmpty { text += " (\(message))" }
        return text
    }

    public enum Code: Sendable, Hashable {
        /// An OpenZWave Manager already exists in this process (it is a singleton).
        case managerExists
        case noManager
        case invalidArgument
        case configPath
        case userPath
        case options
        /// OpenZWave returned false (unknown node, busy controller...).
        case failed
        case invalidHomeID
        case invalidValueID
        case cannotConvert
        case invalidNodeID
        case security
        case exception
        case typeMismatch
        /// `run()` is not active.
        case notRunning
        /// `run()` was called twice.
        case alreadyRunning
        /// The driver is not ready (no DriverReady yet, or the adapter is lost).
        case notReady
        /// No such value is known (not reported by the node's interview).
        case valueNotFound
        case unknownStatus(Int32)
    }
}
