import ArgumentParser
import BridgeDaemon

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
            HealthCommand.self,
            RemoveFailedCommand.self,
            ConfigCommand.self,
            AssociationsCommand.self,
            HomeKitCommand.self,
            AssociateCommand.self,
            DissociateCommand.self,
        ]
    )

    static func main() async { await mainExitingTwoOnUsageError() }
}
