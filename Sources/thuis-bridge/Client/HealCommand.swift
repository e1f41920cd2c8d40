import ArgumentParser
import BridgeCore

/// `thuis-bridge heal [<node>]`: heals one node's routes or the whole network.
struct HealCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heal", abstract: "Heal the routes of one Z-Wave node, or of the whole network.")

    @OptionGroup var options: ClientOptions
    @Argument(help: "The node id (1-232); the whole network when omitted.") var node: Int?

    var request: ClientRequest { ClientRequest(.heal, node.map { [("node", .int($0))] } ?? []) }

    func validate() throws { try request.validate() }

    func run() async throws {
        try await ClientRunner.run(options) { connection in
            _ = try await connection.request(request.command, request.arguments)
            ClientRunner.standardOutput("heal started for \(node.map { "node \($0)" } ?? "the whole network")\n")
        }
    }
}
