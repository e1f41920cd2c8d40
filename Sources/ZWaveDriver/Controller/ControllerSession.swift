internal import BridgeCore

/// One running controller command of `ZWaveBackend` (inclusion, exclusion, failed-node removal): the sink of the
/// request that runs it, what was reported so far and who waits for its end.
struct ControllerSession {
    enum Kind: String, Sendable {
        case include = "inclusion"
        case exclude = "exclusion"
        case removeFailed = "remove_failed"

        /// How its events are named (`inclusion_waiting`, `exclusion_failed`...).
        var operation: BridgeEvent.ControllerOperation {
            switch self {
            case .include: .inclusion
            case .exclude: .exclusion
            case .removeFailed: .removeFailed
            }
        }

        /// Whether it takes a node out of the network (its end waits for the library's report of the removal).
        var removesNode: Bool { self != .include }

        /// OpenZWave's `Driver::ControllerCommand` number.
        var command: UInt8 {
            switch self {
            case .include: 1
            case .exclude: 4
            case .removeFailed: 5
            }
        }
    }

    /// How a controller command ended.
    enum Outcome: Sendable, Equatable {
        case completed(NodeID?)
        case failed(String)
        case cancelled
        case timedOut
        /// Cancelled because the bridge stops (the request's task was cancelled).
        case bridgeStopping
    }

    let kind: Kind
    /// Distinguishes this session from later ones (for its timer).
    let id: Int
    /// The sink of the request that runs the command: its progress, and the events of its node.
    let progress: RequestProgress
    /// The node being added or removed, once the controller named it.
    var node: NodeID?
    var nodeFoundReported = false
    var addingReported = false
    /// Set when `cancel` was requested or the timeout stopped the command: the end is reported as such.
    var stopReason: Outcome?
    var finish: CheckedContinuation<Outcome, Never>?
    /// An outcome that arrived before anyone waited.
    var finished: Outcome?
    /// Exclusion, failed-node removal: the library reported the node's removal (`Type_NodeRemoved`), and the
    /// controller completed before it did (the request is answered once the removal was reported).
    var removalReported = false
    var awaitingRemoval = false

    init(kind: Kind, id: Int, progress: RequestProgress) {
        self.kind = kind
        self.id = id
        self.progress = progress
    }

    /// A real node id (OpenZWave uses 0 and 255 for "none").
    static func valid(_ node: NodeID) -> NodeID? {
        node.rawValue == 0 || node.rawValue == 255 ? nil : node
    }
}
