/// One step of a running `health_check`, published as `health_check_<name>`: `started` (the nodes and frames),
/// `frame` (one NoOperation frame's end), `node` (a node's result), `completed` (how many nodes were tested).
public enum HealthCheckStep: Sendable, Hashable {
    case started(nodes: [Int], frames: Int)
    case frame(HealthFrame)
    case node(NodeHealth)
    case completed(nodes: Int)

    /// The step's name, the end of the event's `type`.
    public var name: String {
        switch self {
        case .started: "started"
        case .frame: "frame"
        case .node: "node"
        case .completed: "completed"
        }
    }
}
