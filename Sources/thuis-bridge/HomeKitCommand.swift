import ArgumentParser
import BridgeCore
import BridgeDaemon
internal import Glibc
import HomeKit
internal import SystemSupport
import TerminalQR

/// `thuis-bridge homekit`: the setup code (as text and as the QR code an iPhone scans) and the paired controllers;
/// `thuis-bridge homekit reset` removes every pairing. Only this command prints the setup code: nothing logs it.
struct HomeKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "homekit",
        abstract: "Show the HomeKit setup code and QR code, and the paired controllers.",
        discussion:
            "Exits 2 when the configuration has no usable [homekit] section, 1 when the pairing file cannot be read.",
        subcommands: [HomeKitShowCommand.self, HomeKitResetCommand.self],
        defaultSubcommand: HomeKitShowCommand.self
    )
}

/// The options both subcommands share.
struct HomeKitOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "The configuration file (its [homekit] section).")
    var config: String = "devices.toml"

    /// The settings and the pairing state, or the error printed and the exit code thrown.
    func load() throws -> (HomeKitSettings, PairingFileState?) {
        do {
            let settings = try HomeKitSettings.read(configurationFile: config)
            return (settings, try PairingFileState.read(settings.pairingFile))
        } catch {
            writeStandardError("\(error.description)\n")
            throw ExitCode(error.exitCode)
        }
    }
}

/// Why the command cannot show or reset the HomeKit state: exit 2 for the configuration, 1 for the pairing file.
struct HomeKitCommandError: Error, CustomStringConvertible {
    let description: String
    let exitCode: Int32

    static func configuration(_ text: String) -> Self { Self(description: text, exitCode: 2) }
    static func pairingFile(_ text: String) -> Self { Self(description: text, exitCode: 1) }
}

/// `thuis-bridge homekit [show]`.
struct HomeKitShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show the setup code, its QR code and the paired controllers.")

    @OptionGroup var options: HomeKitOptions

    func run() async throws {
        let (settings, state) = try options.load()
        let qrCode = (state?.setupID).flatMap { try? QRCode(SetupPayload(code: settings.setupCode, setupID: $0).uri) }
        let damaged = state == nil ? DamagedPairingFile.copies(of: settings.pairingFile).last : nil
        writeStandardOutput(
            Self.text(settings, state, qrCode: qrCode, terminal: isatty(STDOUT_FILENO) == 1, damaged: damaged) + "\n")
    }

    /// Everything the command prints; `damaged`: the pairing file's damaged copy, when the file is missing because
    /// the bridge moved it aside (the bridge then runs without HomeKit).
    static func text(
        _ settings: HomeKitSettings, _ state: PairingFileState?, qrCode: QRCode?, terminal: Bool,
        damaged: String? = nil
    ) -> String {
        var lines = ["SETUP CODE  \(settings.setupCode)"]
        if let damaged {
            lines.append(
                "HomeKit is off: the bridge found the pairing file \(settings.pairingFile) damaged and moved it aside to "
                    + "\(damaged); it runs without HomeKit (Z-Wave, CEC and MQTT as usual). To pair again: stop the "
                    + "bridge (sudo systemctl stop thuis-bridge), run `thuis-bridge homekit reset` (a new HomeKit "
                    + "identity), start the bridge, then remove the bridge from the Home app and add it again with "
                    + "the setup code.")
            return lines.joined(separator: "\n")
        }
        if let qrCode, let setupID = state?.setupID {
            lines += [
                "", qrCode.rendered(colors: terminal), "",
                "Scan it in the Home app (Add Accessory) or type the setup code.",
                "Setup payload: \(SetupPayload(code: settings.setupCode, setupID: setupID).uri)",
            ]
        } else {
            lines.append(
                "No QR code yet: \(settings.pairingFile) does not exist. The bridge makes it (with the setup id the QR "
                    + "code holds) when it first runs with [homekit] enabled; until then type the setup code.")
        }
        lines.append("")
        let pairings = state?.pairings ?? []
        guard !pairings.isEmpty else {
            lines.append("PAIRED CONTROLLERS  none: the bridge advertises itself as unpaired")
            return lines.joined(separator: "\n")
        }
        lines.append("PAIRED CONTROLLERS  \(pairings.count)")
        lines.append(
            TextTable.render(["CONTROLLER", "ADMIN"], pairings.map { [$0.id, $0.admin ? "yes" : "no"] })
                .trimmingSuffixNewlines())
        return lines.joined(separator: "\n")
    }
}

/// `thuis-bridge homekit reset`.
struct HomeKitResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset", abstract: "Remove every paired controller (pair the bridge again afterwards).",
        discussion:
            "Stop the bridge first (sudo systemctl stop thuis-bridge): the running bridge keeps its pairings and "
            + "writes them back. Started again, it advertises itself as unpaired.")

    @OptionGroup var options: HomeKitOptions

    func run() async throws {
        let (settings, loaded) = try options.load()
        if isListeningLocally(port: settings.port) {
            writeStandardError(
                "The bridge is running (its HomeKit port \(settings.port) answers): stop it first "
                    + "(sudo systemctl stop thuis-bridge), reset, then start it again. A running bridge keeps its "
                    + "pairings and would write them back.\n")
            throw ExitCode(1)
        }
        if loaded == nil, let damaged = DamagedPairingFile.copies(of: settings.pairingFile).last {
            do {
                _ = try HomeKitStore(path: settings.pairingFile)
            } catch {
                writeStandardError("\(error.description)\n")
                throw ExitCode(1)
            }
            writeStandardOutput(
                "Made a new HomeKit identity in \(settings.pairingFile) (the damaged file stays at \(damaged)). Start "
                    + "the bridge (sudo systemctl start thuis-bridge), then remove the bridge from the Home app and add "
                    + "it again with the setup code.\n")
            return
        }
        guard let state = loaded, case let removed = state.pairings, !removed.isEmpty else {
            writeStandardOutput("No controller is paired: nothing to remove.\n")
            return
        }
        do {
            try state.removeAllPairings()
        } catch {
            writeStandardError("\(error.description)\n")
            throw ExitCode(error.exitCode)
        }
        var lines = ["Removed \(removed.count) pairing\(removed.count == 1 ? "" : "s"):"]
        lines += removed.map { "  \($0.id)\($0.admin ? " (admin)" : "")" }
        lines.append(
            "Start the bridge (sudo systemctl start thuis-bridge): it advertises itself as unpaired; pair it again "
                + "with the setup code.")
        writeStandardOutput(lines.joined(separator: "\n") + "\n")
    }
}

extension String {
    /// Without the newlines at its end.
    fileprivate func trimmingSuffixNewlines() -> String {
        var text = self
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
