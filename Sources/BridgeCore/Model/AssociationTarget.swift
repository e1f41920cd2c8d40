/// The member of an association group a request or devices.toml names: a node (`5`), or one endpoint of it
/// (`"5:1"`), the form Z-Wave JS UI users know.
public struct AssociationTarget: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The node id, 1-232.
    public let node: Int
    /// The endpoint, 1-127, or `nil` for the node itself.
    public let endpoint: Int?

    public static let nodeRange = 1...232
    public static let endpointRange = 1...127
    public static let groupRange = 1...255

    public init(node: Int, endpoint: Int? = nil) {
        self.node = node
        self.endpoint = endpoint
    }

    /// `5` or `5:1`.
    public var description: String { endpoint.map { "\(node):\($0)" } ?? "\(node)" }

    public static func < (lhs: AssociationTarget, rhs: AssociationTarget) -> Bool {
        (lhs.node, lhs.endpoint ?? 0) < (rhs.node, rhs.endpoint ?? 0)
    }

    /// Parses `"5"` or `"5:1"`; the error says what is wrong.
    public static func parse(_ text: String) -> Result<AssociationTarget, AssociationTargetError> {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let node = Int(parts[0]), String(node) == parts[0] else {
            return .failure(.init(text, "is not a node or node:endpoint (like 5 or \"5:1\")"))
        }
        var endpoint: Int?
        if parts.count == 2 {
            guard let number = Int(parts[1]), String(number) == parts[1] else {
                return .failure(.init(text, "is not a node or node:endpoint (like 5 or \"5:1\")"))
            }
            endpoint = number
        }
        return checked(node: node, endpoint: endpoint, text: text)
    }

    /// A bare node number as a target.
    public static func parse(node: Int) -> Result<AssociationTarget, AssociationTargetError> {
        checked(node: node, endpoint: nil, text: String(node))
    }

    private static func checked(node: Int, endpoint: Int?, text: String) -> Result<
        AssociationTarget, AssociationTargetError
    > {
        guard nodeRange.contains(node) else {
            return .failure(.init(text, "names node \(node), outside the Z-Wave node ids 1...232"))
        }
        if let endpoint, !endpointRange.contains(endpoint) {
            return .failure(.init(text, "names endpoint \(endpoint), outside 1...127"))
        }
        return .success(AssociationTarget(node: node, endpoint: endpoint))
    }
}

/// Why a text is not an association target.
public struct AssociationTargetError: Error, Sendable, CustomStringConvertible {
    public let text: String
    public let problem: String

    init(_ text: String, _ problem: String) {
        self.text = String(text.prefix(64))
        self.problem = problem
    }

    /// `target "5:x" is not a node or node:endpoint (like 5 or "5:1")`.
    public var description: String { "\"\(text)\" \(problem)" }
}
