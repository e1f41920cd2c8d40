import ArgumentParser
import BridgeDaemon

/// The `thuis-lab` command: the bridge on emulated hardware (`demo`) and the emulators on their own
/// (`emulate zwave|cec`), for people without a stick or a TV. The daemon, `thuis-bridge`, links none of it.
@main
struct ThuisLab: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thuis-lab",
        abstract: "The thuis-bridge demo and the Z-Wave and HDMI-CEC emulators.",
        subcommands: [DemoCommand.self, EmulateCommand.self]
    )

    static func main() async { await mainExitingTwoOnUsageError() }
}

/// `thuis-lab emulate zwave|cec`: emulated hardware on a pseudo-terminal.
struct EmulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emulate",
        abstract: "Serve an emulated Z-Wave stick or Pulse-Eight CEC adapter on a pseudo-terminal.",
        subcommands: [EmulateZWaveCommand.self, EmulateCECCommand.self]
    )
}
