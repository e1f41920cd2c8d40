/// What applying a node's desired associations (devices.toml `associations`) did: the members added, and those
/// that could not be added with the reason. Published as `associations_applied` when nothing failed, else as
/// `associations_failed`.
public struct AssociationsOutcome: Sendable, Hashable {
    /// A member added to a group.
    public struct Added: Sendable, Hashable {
        public let group: Int
        public let target: AssociationTarget
        public init(group: Int, target: AssociationTarget) {
            self.group = group
            self.target = target
        }
    }

    /// A member the node did not take, with the reason.
    public struct Failure: Sendable, Hashable {
        public let group: Int
        public let target: AssociationTarget
        public let reason: String
        public init(group: Int, target: AssociationTarget, reason: String) {
            self.group = group
            self.target = target
            self.reason = reason
        }
    }

    public let node: Int
    /// Members added (the node now holds them; read back).
    public let added: [Added]
    /// Desired members the node already held.
    public let present: Int
    public let failed: [Failure]

    public init(node: Int, added: [Added], present: Int, failed: [Failure]) {
        self.node = node
        self.added = added
        self.present = present
        self.failed = failed
    }

    /// The event's fields after `type`.
    var fields: [(String, JSONValue)] {
        [
            ("node", .int(node)),
            (
                "added",
                .array(added.map { .object([("group", .int($0.group)), ("target", .string($0.target.description))]) })
            ),
            ("already_present", .int(present)),
            (
                "failed",
                .array(
                    failed.map {
                        .object([
                            ("group", .int($0.group)), ("target", .string($0.target.description)),
                            ("reason", .string($0.reason)),
                        ])
                    })
            ),
        ]
    }
}
