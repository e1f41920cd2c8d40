import ArgumentParser
import BridgeCore

/// `thuis-bridge config get <node> <parameter>`: prints the value the device reports.
struct ConfigGetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: "Print a configuration parameter as the device reports it.")

    @OptionGroup var options: ClientOptions
    @Argument(help: "The node id (1-232).") var node: Int
    @Argument(help: "The parameter number (1-255).") var parameter: Int

    var request: ClientRequest { ClientRequest(.getConfig, [("node", .int(node)), ("parameter", .int(parameter))]) }

    func validate() throws { try request.validate() }

    func run() async throws {
        try await ClientRunner.run(options) { connection in
            let data = try await connection.request(request.command, request.arguments)
            ClientRunner.standardOutput((data["value"]?.serialized ?? "?") + "\n")
        }
    }
}
