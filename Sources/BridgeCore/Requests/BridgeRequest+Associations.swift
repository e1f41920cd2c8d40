extension BridgeRequest {
    /// The arguments of `associate` and `dissociate`: `node`, `group` and `target` (`5`, `"5"` or `"5:1"`), a target
    /// that is not the node itself.
    static func associationArguments(_ arguments: RequestArguments) throws(RequestFailure) -> (
        node: Int, group: Int, target: AssociationTarget
    ) {
        let node = try arguments.node()
        let group = try arguments.integer("group", in: AssociationTarget.groupRange)
        let parsed: Result<AssociationTarget, AssociationTargetError>
        switch arguments.json["target"] {
        case .int(let number)?: parsed = AssociationTarget.parse(node: number)
        case .string(let text)?: parsed = AssociationTarget.parse(text)
        case nil, .null?:
            throw RequestFailure("missing argument \"target\" (a node like 5, or node:endpoint like \"5:1\")")
        case let other?:
            throw RequestFailure(
                "argument \"target\" must be a node like 5 or node:endpoint like \"5:1\", not "
                    + other.serialized.prefix(64))
        }
        let target: AssociationTarget
        switch parsed {
        case .success(let value): target = value
        case .failure(let error): throw RequestFailure("argument \"target\": \(error)")
        }
        guard target.node != node else {
            throw RequestFailure("argument \"target\": node \(node) cannot be associated with itself")
        }
        return (node, group, target)
    }
}
