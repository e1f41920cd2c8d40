import ArgumentParser
import FoundationEssentials
internal import Glibc
internal import SystemSupport

/// The `thuis-bridge` command: the daemon and its maintenance CLI (the demo and emulators are `thuis-lab`).
@main
struct ThuisBridge: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thuis-bridge",
        abstract: "Bridges Z-Wave (OpenZWave) and HDMI-CEC (libcec) devices to MQTT for Thuis.",
        subcommands: [
            RunCommand.self,
            CheckConfigCommand.self,
            IncludeCommand.self,
            ExcludeCommand.self,
            DevicesCommand.self,
            RefreshCommand.self,
            HealCommand.self,
            RemoveFailedCommand.self,
            ConfigCommand.self,
        ]
    )

    /// Runs the chosen command; a usage error exits 2 (ArgumentParser's default is 64), as the CLI documents
    /// (0 success, 1 failed or timed out, 2 usage or configuration error).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                writeStandardError(fullMessage(for: error) + "\n")
                Glibc.exit(2)
            }
            exit(withError: error)
        }
    }
}
