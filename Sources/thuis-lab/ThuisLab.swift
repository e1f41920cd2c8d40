import ArgumentParser
internal import Glibc
internal import SystemSupport

/// The `thuis-lab` command: the bridge on emulated hardware (`demo`) and the emulators on their own
/// (`emulate zwave|cec`), for people without a stick or a TV. The daemon, `thuis-bridge`, links none of it.
@main
struct ThuisLab: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thuis-lab",
        abstract: "The thuis-bridge demo and the Z-Wave and HDMI-CEC emulators.",
        subcommands: [DemoCommand.self, EmulateCommand.self]
    )

    /// Runs the chosen command; a usage error exits 2, as `thuis-bridge` does.
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
