import ArgumentParser
import BridgeCore

/// `thuis-bridge exclude [--timeout 60]`: exclusion mode on the running bridge; the node that leaves is
/// removed from the bridge and its retained topics are cleared.
struct ExcludeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exclude", abstract: "Remove a Z-Wave device (exclusion mode on the running bridge).")

    @OptionGroup var options: ClientOptions
    @Option(help: "Seconds to wait for a device to leave (1-600).") var timeout: Int = 60

    var request: ClientRequest { ClientRequest(.exclude, [("timeout_s", .int(timeout))]) }

    func validate() throws { try request.validate() }

    func run() async throws {
        try await ClientRunner.run(options) { connection in
            let data = try await ControllerRequest.run(
                connection, command: request.command, arguments: request.arguments,
                timeout: .seconds(timeout + 15), what: "exclusion")
            ClientRunner.standardOutput("node \(data["node"]?.serialized ?? "?") removed\n")
        }
    }
}
