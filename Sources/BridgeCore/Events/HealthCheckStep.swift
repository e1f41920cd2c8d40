/// One step of a running `health_check`: `started` (the nodes and frames), `frame` (one NoOperation frame's
/// end), `node` (a node's result), `completed`. Its fields are the event's fields after `type`.
public struct HealthCheckStep: Sendable, Equatable {
    public let name: String
    public let fields: [(String, JSONValue)]

    public init(_ name: String, _ fields: [(String, JSONValue)]) {
        self.name = name
        self.fields = fields
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.name == b.name && JSONValue.object(a.fields) == JSONValue.object(b.fields)
    }
}
