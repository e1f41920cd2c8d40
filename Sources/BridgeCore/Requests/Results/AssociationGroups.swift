/// The `associations` answer: every association group of a node, as the library last read them, and the
/// controller (the Lifeline's member).
public struct AssociationGroups: Sendable, Hashable {
    public let node: Int
    public let controller: Int?
    public let groups: [AssociationGroup]

    public init(node: Int, controller: Int?, groups: [AssociationGroup]) {
        self.node = node
        self.controller = controller
        self.groups = groups
    }
}

/// One association group: its number, label, most members and members (nodes or endpoints).
public struct AssociationGroup: Sendable, Hashable {
    public let group: Int
    public let label: String
    public let maxMembers: Int
    public let members: [AssociationTarget]

    public init(group: Int, label: String, maxMembers: Int, members: [AssociationTarget]) {
        self.group = group
        self.label = label
        self.maxMembers = maxMembers
        self.members = members
    }
}
