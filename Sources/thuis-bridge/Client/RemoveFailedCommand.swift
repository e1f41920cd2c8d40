import ArgumentParser
import BridgeCore

/// `thuis-bridge remove-failed <node>`: removes a node the controller considers failed.
struct RemoveFailedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-failed", abstract: "Remove a failed (dead) Z-Wave node from the network.")

    @OptionGroup var options: ClientOptions
    @Argument(help: "The node id (1-232).") var node: Int

    var request: ClientRequest { ClientRequest(.removeFailed, [("node", .int(node))]) }

    func validate() throws { try request.validate() }

    func run() async throws {
        try await ClientRunner.run(options) { connection in
            _ = try await connection.request(request.command, request.arguments, timeout: .seconds(75))
            ClientRunner.standardOutput("node \(node) removed\n")
        }
    }
}
