import ArgumentParser
import BridgeCore

/// `thuis-bridge config set <node> <parameter> <value> [--size N]`: sets it and prints the value read back.
struct ConfigSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Set a configuration parameter and print the value read back.")

    @OptionGroup var options: ClientOptions
    @Argument(help: "The node id (1-232).") var node: Int
    @Argument(help: "The parameter number (1-255).") var parameter: Int
    @Argument(help: "The value (a signed 32-bit integer).") var value: Int
    @Option(help: "The parameter size in bytes (1, 2 or 4); by default the size the device reported.") var size: Int?

    var request: ClientRequest {
        ClientRequest(
            .setConfig,
            [("node", .int(node)), ("parameter", .int(parameter)), ("value", .int(value))]
                + (size.map { [("size", .int($0))] } ?? []))
    }

    func validate() throws { try request.validate() }

    func run() async throws {
        try await ClientRunner.run(options) { connection in
            let data = try await connection.request(request.command, request.arguments)
            ClientRunner.standardOutput((data["value"]?.serialized ?? "?") + "\n")
        }
    }
}
