import ArgumentParser
import BridgeCore

/// `thuis-bridge associations <node>`: the node's association groups, their labels, maximums and members.
struct AssociationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "associations", abstract: "List the association groups of a Z-Wave node and their members.")

    @OptionGroup var options: ClientOptions
    @Argument(help: "The node id (1-232).") var node: Int

    var request: ClientRequest { ClientRequest(.associations, [("node", .int(node))]) }

    func validate() throws { try request.validate() }

    func run() async throws {
        try await ClientRunner.run(options) { connection in
            let data = try await connection.request(request.command, request.arguments)
            ClientRunner.standardOutput(Self.table(data))
        }
    }

    static let headers = ["GROUP", "LABEL", "MAX", "MEMBERS"]

    /// One row per group; members as `5` or `5:1` (node:endpoint), `-` for none.
    static func table(_ data: JSONValue) -> String {
        guard case .array(let groups)? = data["groups"] else { return "the bridge sent no groups\n" }
        if groups.isEmpty { return "node \(data["node"]?.serialized ?? "?") has no association groups\n" }
        return TextTable.render(headers, groups.map(row))
    }

    static func row(_ group: JSONValue) -> [String] {
        var members: [String] = []
        if case .array(let list)? = group["members"] {
            members = list.compactMap { if case .string(let member) = $0 { member } else { nil } }
        }
        var label = "-"
        if case .string(let text)? = group["label"], !text.isEmpty { label = text }
        return [
            group["group"]?.serialized ?? "?", label, group["max"]?.serialized ?? "?",
            members.isEmpty ? "-" : members.joined(separator: ", "),
        ]
    }
}

/// The arguments of `thuis-bridge associate <node> <group> <target>` and `dissociate`.
struct AssociationArguments: ParsableArguments {
    @Argument(help: "The node id (1-232).") var node: Int
    @Argument(help: "The association group (1-255).") var group: Int
    @Argument(help: "The target: a node (5) or a node's endpoint (5:1).") var target: String

    func request(_ verb: BridgeRequest.Verb) -> ClientRequest {
        ClientRequest(verb, [("node", .int(node)), ("group", .int(group)), ("target", .string(target))])
    }

    /// Sends the change and prints the group as the node reports it afterwards.
    func run(_ verb: BridgeRequest.Verb, _ options: ClientOptions) async throws {
        let change = request(verb)
        try await ClientRunner.run(options) { connection in
            let data = try await connection.request(change.command, change.arguments)
            ClientRunner.standardOutput(TextTable.render(AssociationsCommand.headers, [AssociationsCommand.row(data)]))
        }
    }
}

/// `thuis-bridge associate <node> <group> <target>`: one member added.
struct AssociateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "associate", abstract: "Add a node (or node:endpoint) to an association group of a Z-Wave node.")

    @OptionGroup var options: ClientOptions
    @OptionGroup var arguments: AssociationArguments

    func validate() throws { try arguments.request(.associate).validate() }

    func run() async throws { try await arguments.run(.associate, options) }
}

/// `thuis-bridge dissociate <node> <group> <target>`: one member removed (never the Lifeline's controller).
struct DissociateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dissociate",
        abstract: "Remove a node (or node:endpoint) from an association group of a Z-Wave node.")

    @OptionGroup var options: ClientOptions
    @OptionGroup var arguments: AssociationArguments

    func validate() throws { try arguments.request(.dissociate).validate() }

    func run() async throws { try await arguments.run(.dissociate, options) }
}
