internal import BridgeCore
internal import Logging

/// The association requests (`associations`, `associate`, `dissociate`) and the desired associations of
/// devices.toml. Everything the library knows (the node, its groups, their maximum, the target node) is checked
/// before anything is sent, so a wrong request never reaches the radio. The Lifeline (group 1 → the controller) is
/// never removed: without it the node stops reporting to the bridge.
extension ConfigurationApplier {
    /// `associations`: every group of the node with its label, maximum and members, as OpenZWave last read them.
    func associations(_ node: NodeID) async throws(RequestFailure) -> AssociationGroups {
        let count = try await groupCount(node)
        var groups: [AssociationGroup] = []
        for index in stride(from: 1, through: count, by: 1) {
            groups.append(AssociationGroup(try await group(node, index)))
        }
        let controller = await driver.controllerNode
        return AssociationGroups(
            node: Int(node.rawValue), controller: controller.map { Int($0.rawValue) }, groups: groups)
    }

    /// `associate`: adds `target` to the group, then waits until the node's report (OpenZWave reads the group back
    /// after the Set) shows it.
    func associate(_ node: NodeID, group index: Int, target: AssociationTarget) async throws(RequestFailure)
        -> AssociationGroup
    {
        let (group, member) = try await checkedGroup(node, index, target: target)
        if !group.members.contains(member) {
            try await checkEndpoint(of: member)
            guard group.members.count < group.maxMembers else {
                throw RequestFailure(
                    "group \(index) (\(group.label)) of \(node) is full: it takes at most \(group.maxMembers) "
                        + "member(s) and holds \(Self.list(group.members)); dissociate one first")
            }
            try await change(node, group: group, member: member, add: true)
        }
        return AssociationGroup(try await self.group(node, index))
    }

    /// `dissociate`: removes `target` from the group and waits until the node's report no longer shows it.
    func dissociate(_ node: NodeID, group index: Int, target: AssociationTarget) async throws(RequestFailure)
        -> AssociationGroup
    {
        let (group, member) = try await checkedGroup(node, index, target: target)
        if index == 1, let controller = await driver.controllerNode, member.node == controller {
            throw RequestFailure(
                "the Lifeline (group 1 → the controller, \(controller)) is never removed: without it \(node) stops "
                    + "reporting its state to the bridge")
        }
        guard group.members.contains(member) else {
            try await checkEndpoint(of: member)
            throw RequestFailure(
                "\(target) is not a member of group \(index) (\(group.label)) of \(node); it holds "
                    + Self.list(group.members))
        }
        try await change(node, group: group, member: member, add: false)
        return AssociationGroup(try await self.group(node, index))
    }

    // MARK: - Checks

    func groupCount(_ node: NodeID) async throws(RequestFailure) -> Int {
        do {
            return try await driver.associationGroupCount(node)
        } catch {
            throw RequestFailure("cannot read the association groups of \(node): \(error)")
        }
    }

    func group(_ node: NodeID, _ index: Int) async throws(RequestFailure) -> ZWaveAssociationGroup {
        do {
            return try await driver.associationGroup(node, UInt8(clamping: index))
        } catch {
            throw RequestFailure("cannot read association group \(index) of \(node): \(error)")
        }
    }

    /// The group (which must exist) and the target as a member (a node in the network).
    func checkedGroup(_ node: NodeID, _ index: Int, target: AssociationTarget) async throws(RequestFailure) -> (
        ZWaveAssociationGroup, ZWaveAssociationMember
    ) {
        let count = try await groupCount(node)
        guard count > 0, (1...count).contains(index) else {
            throw RequestFailure(
                count == 0
                    ? "\(node) has no association groups"
                    : "\(node) has no association group \(index); its groups are 1...\(count)")
        }
        let targetNode: NodeID
        do {
            targetNode = try await ZWaveBackend.knownNode(target.node, on: driver)
        } catch {
            throw RequestFailure("target \(target): \(error.reason)")
        }
        let member = ZWaveAssociationMember(node: targetNode, endpoint: target.endpoint.map { UInt8(clamping: $0) })
        return (try await group(node, index), member)
    }

    /// An endpoint target must name an endpoint the target node has: the node supports Multi Channel (version 2 or
    /// later, the version with endpoints) and OpenZWave created an instance that high for it. A node answers an
    /// association to an endpoint it lacks by sending its reports nowhere, so the request is refused instead.
    func checkEndpoint(of member: ZWaveAssociationMember) async throws(RequestFailure) {
        guard let endpoint = member.endpoint else { return }
        let target = member.node
        guard (try? await driver.nodeInfo(target))?.infoReceived == true else {
            throw RequestFailure(
                "target \(member): the node information of \(target) has not arrived yet, so its endpoints are not "
                    + "known; try again after its interview")
        }
        let version: UInt8?
        do {
            version = try await driver.commandClassVersion(target, CommandClass.multiChannel)
        } catch {
            throw RequestFailure("target \(member): cannot read the command classes of \(target): \(error)")
        }
        guard let version, version >= 2 else {
            throw RequestFailure(
                "target \(member): \(target) is not a Multi Channel node (it has no endpoints); associate the node "
                    + "itself (\(target.rawValue))")
        }
        let highest = await driver.highestInstance(target)
        guard endpoint <= highest else {
            throw RequestFailure(
                "target \(member): \(target) has no endpoint \(endpoint); its endpoints are 1...\(highest) at most")
        }
    }

    /// Sends the Set or Remove and waits (twice the confirmation timeout: the Set, then the library's Get) until
    /// the group as the node reported it shows the change.
    func change(_ node: NodeID, group: ZWaveAssociationGroup, member: ZWaveAssociationMember, add: Bool)
        async throws(RequestFailure)
    {
        do {
            try await driver.changeAssociation(node, group: group.index, member: member, add: add)
        } catch {
            throw RequestFailure(
                "cannot \(add ? "add" : "remove") \(member) in group \(group.index) of \(node): \(error)")
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: confirmationTimeout * 2)
        while true {
            let now = try? await driver.associationGroup(node, group.index)
            if let now, now.members.contains(member) == add { return }
            if clock.now >= deadline || Task.isCancelled {
                throw RequestFailure(
                    "\(node) did not confirm \(add ? "adding" : "removing") \(member) in group \(group.index) within "
                        + "\(confirmationTimeout * 2); it holds \(Self.list(now?.members ?? group.members))")
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    // MARK: - Desired associations

    /// Whether devices.toml wants associations on `node`.
    func wantsAssociations(_ node: NodeID) -> Bool {
        devices.contains { $0.node == Int(node.rawValue) && !$0.associations.isEmpty }
    }

    /// Adds the desired members of every configured group of `node` that it does not hold; removes nothing.
    func applyAssociations(_ node: NodeID) async -> AssociationsOutcome {
        var wanted: [Int: [AssociationTarget]] = [:]
        for device in devices where device.node == Int(node.rawValue) {
            for (group, targets) in device.associations {
                let existing = wanted[group] ?? []
                wanted[group] = existing + targets.filter { !existing.contains($0) }
            }
        }
        var added: [AssociationsOutcome.Added] = []
        var present = 0
        var failed: [AssociationsOutcome.Failure] = []
        for (group, targets) in wanted.sorted(by: { $0.key < $1.key }) {
            for target in targets {
                do throws(RequestFailure) {
                    let (current, member) = try await checkedGroup(node, group, target: target)
                    if current.members.contains(member) {
                        present += 1
                        continue
                    }
                    _ = try await associate(node, group: group, target: target)
                    added.append(.init(group: group, target: target))
                } catch {
                    failed.append(.init(group: group, target: target, reason: error.reason))
                }
            }
        }
        logger.info(
            "associations applied",
            metadata: ["node": "\(node.rawValue)", "added": "\(added.count)", "failed": "\(failed.count)"])
        return AssociationsOutcome(node: Int(node.rawValue), added: added, present: present, failed: failed)
    }

    static func list(_ members: [ZWaveAssociationMember]) -> String {
        members.isEmpty ? "no members" : members.map(\.description).joined(separator: ", ")
    }
}

extension AssociationGroup {
    /// A group as the library last read it.
    init(_ group: ZWaveAssociationGroup) {
        self.init(
            group: Int(group.index), label: group.label, maxMembers: group.maxMembers,
            members: group.members.map {
                AssociationTarget(node: Int($0.node.rawValue), endpoint: $0.endpoint.map { Int($0) })
            })
    }
}
