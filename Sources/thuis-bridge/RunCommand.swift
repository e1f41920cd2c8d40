import ArgumentParser

/// `thuis-bridge run [--config devices.toml]`: the daemon.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the bridge daemon.")
    @Option var config: String = "devices.toml"
    func run() async throws { throw ExitCode(1) }
}
