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

    func validate() throws {
        guard (1...232).contains(node) else { throw ValidationError("node must be 1...232") }
        guard (1...255).contains(parameter) else { throw ValidationError("parameter must be 1...255") }
        guard Int(Int32.min)...Int(Int32.max) ~= value else { throw ValidationError("value must fit in 32 bits") }
        if let size, ![1, 2, 4].contains(size) { throw ValidationError("--size must be 1, 2 or 4") }
    }

    func run() async throws {
        try await ClientRunner.run(options) { connection in
            var arguments: [(String, JSONValue)] = [
                ("node", .int(node)), ("parameter", .int(parameter)), ("value", .int(value)),
            ]
            if let size { arguments.append(("size", .int(size))) }
            let data = try await connection.request("set_config", arguments)
            ClientRunner.standardOutput((data["value"]?.serialized ?? "?") + "\n")
        }
    }
}
