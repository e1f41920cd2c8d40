import ArgumentParser

/// `thuis-lab emulate zwave|cec`: emulated hardware on a pseudo-terminal.
struct EmulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emulate",
        abstract: "Serve an emulated Z-Wave stick or Pulse-Eight CEC adapter on a pseudo-terminal.",
        subcommands: [EmulateZWaveCommand.self, EmulateCECCommand.self]
    )
}
