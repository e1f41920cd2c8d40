import ArgumentParser

/// The `thuis-bridge` command: the daemon, its maintenance CLI and the emulators.
@main
struct ThuisBridge: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thuis-bridge",
        abstract: "Bridges Z-Wave (OpenZWave) and HDMI-CEC (libcec) devices to MQTT for Thuis.",
        subcommands: [
            RunCommand.self,
            CheckConfigCommand.self,
            EmulateCommand.self,
        ]
    )
}
