internal import CZWaveShim

/// One association group of a node as OpenZWave knows it: its label, how many members it takes and its members.
public struct ZWaveAssociationGroup: Sendable, Hashable {
    /// The group number, 1...count.
    public let index: UInt8
    public let label: String
    /// The most members the node takes in this group.
    public let maxMembers: Int
    public let members: [ZWaveAssociationMember]
}

/// A member of an association group: a node, or one endpoint of it.
public struct ZWaveAssociationMember: Sendable, Hashable, CustomStringConvertible {
    public let node: NodeID
    /// The endpoint (1-127), or `nil` for the node itself.
    public let endpoint: UInt8?

    public init(node: NodeID, endpoint: UInt8?) {
        self.node = node
        self.endpoint = endpoint == 0 ? nil : endpoint
    }

    /// `5`, or `5:1` for an endpoint.
    public var description: String { endpoint.map { "\(node.rawValue):\($0)" } ?? "\(node.rawValue)" }
}

extension OpenZWave {
    /// How many association groups `node` has (`zw_get_num_groups`); they are numbered from 1.
    public func associationGroupCount(_ node: NodeID) throws(ZWaveError) -> Int {
        let (manager, home) = try requireReady("zw_get_num_groups", node: node)
        var count: UInt8 = 0
        try ZWaveError.check(
            zw_get_num_groups(manager, home.rawValue, node.rawValue, &count), call: "zw_get_num_groups", node: node)
        return Int(count)
    }

    /// One association group of `node`: label, maximum and members as OpenZWave last read them.
    public func associationGroup(_ node: NodeID, _ group: UInt8) throws(ZWaveError) -> ZWaveAssociationGroup {
        let (manager, home) = try requireReady("zw_get_associations", node: node)
        var label = [CChar](repeating: 0, count: 128)
        try ZWaveError.check(
            zw_get_group_label(manager, home.rawValue, node.rawValue, group, &label, label.count),
            call: "zw_get_group_label", node: node)
        var maximum: UInt8 = 0
        try ZWaveError.check(
            zw_get_max_associations(manager, home.rawValue, node.rawValue, group, &maximum),
            call: "zw_get_max_associations", node: node)
        // A group holds at most 232 nodes and their endpoints; 512 entries cover any report.
        var buffer = [zw_association](repeating: zw_association(), count: 512)
        var count = 0
        try ZWaveError.check(
            zw_get_associations(manager, home.rawValue, node.rawValue, group, &buffer, buffer.count, &count),
            call: "zw_get_associations", node: node)
        let members = buffer.prefix(min(count, buffer.count)).map {
            ZWaveAssociationMember(node: NodeID($0.node_id), endpoint: $0.endpoint)
        }
        return ZWaveAssociationGroup(
            index: group,
            label: String(decoding: label.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
            maxMembers: Int(maximum), members: members)
    }

    /// Adds `member` to `group` of `node` (`zw_add_association`) or removes it (`zw_remove_association`): OpenZWave
    /// sends the (Multi Channel) Association Set or Remove, then reads the group back with a Get.
    public func changeAssociation(_ node: NodeID, group: UInt8, member: ZWaveAssociationMember, add: Bool)
        throws(ZWaveError)
    {
        let call = add ? "zw_add_association" : "zw_remove_association"
        let (manager, home) = try requireReady(call, node: node)
        let change = add ? zw_add_association : zw_remove_association
        try ZWaveError.check(
            change(manager, home.rawValue, node.rawValue, group, member.node.rawValue, member.endpoint ?? 0),
            call: call, node: node)
    }
}

extension OpenZWave {
    /// The version of `commandClass` that `node` reported in its node information (`zw_get_node_class_version`),
    /// or `nil` when it does not support the class or its node information has not arrived yet.
    public func commandClassVersion(_ node: NodeID, _ commandClass: UInt8) throws(ZWaveError) -> UInt8? {
        let (manager, home) = try requireReady("zw_get_node_class_version", node: node)
        var version: UInt8 = 0
        try ZWaveError.check(
            zw_get_node_class_version(manager, home.rawValue, node.rawValue, commandClass, &version),
            call: "zw_get_node_class_version", node: node)
        return version == 0 ? nil : version
    }

    /// The highest instance among the values OpenZWave created for `node` (1 for a node without endpoints). OpenZWave
    /// creates one instance per Multi Channel endpoint (plus one for the root unless the device's configuration maps
    /// the root onto endpoint 1), so no endpoint of the node is numbered above it.
    public func highestInstance(_ node: NodeID) -> UInt8 {
        network.highestInstance(node)
    }
}
