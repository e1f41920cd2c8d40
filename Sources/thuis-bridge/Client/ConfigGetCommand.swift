import ArgumentParser
import BridgeCore

/// `thuis-bridge config get <node> <parameter>`: prints the value the device reports.
struct ConfigGetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: "Print a configuration parameter as the device reports it.")

    @OptionGroup var options: ClientOptions
    @Argument(help: "The node id (1-232).") var node: Int
    @Argument(help: "The parameter number (1-255).") var parameter: Int

    func validate() throws {
        guard (1...232).contains(node) else { throw ValidationError("node must be 1...232") }
        guard (1...255).contains(parameter) else { throw ValidationError("parameter must be 1...255") }
    }

    func run() async throws {
        try await ClientRunner.run(options) { connection in
            let data = try await connection.request(
                "get_config", [("node", .int(node)), ("parameter", .int(parameter))])
            ClientRunner.standardOutput((data["value"]?.serialized ?? "?") + "\n")
        }
    }
}
