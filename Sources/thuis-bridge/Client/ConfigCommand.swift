import ArgumentParser
import BridgeCore

/// `thuis-bridge config get|set ...`: a device's configuration parameters, read from the device.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Read or set a Z-Wave configuration parameter.",
        subcommands: [ConfigGetCommand.self, ConfigSetCommand.self])
}
