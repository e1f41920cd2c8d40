import ArgumentParser
import BridgeCore
import FoundationEssentials
internal import Glibc
internal import SystemSupport

/// `thuis-bridge check-config [file]`: validates devices.toml without touching any hardware or the broker.
/// Exit 0 and the topics the bridge would serve on stdout; exit 2 and every problem (one per line, with its key
/// path and line) on stderr.
struct CheckConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate devices.toml and print the topics the bridge would serve.",
        discussion: "Exits 0 when the file is valid, 2 listing every problem with its key path otherwise."
    )

    @Argument(help: "The configuration file.") var file: String = "devices.toml"

    func run() async throws {
        let configuration: BridgeConfiguration
        do {
            configuration = try ConfigurationLoader.load(path: file)
        } catch {
            printToStandardError("\(file): \(Self.plural(error.problems.count, "problem"))")
            printToStandardError(error.description)
            throw ExitCode(2)
        }
        print(Self.summary(configuration, file: file))
        print("")
        print(TopicTable(configuration).description)
    }

    /// `devices.toml is valid: bridge "living", prefix "Thuis", MQTT localhost:1883, ...`.
    static func summary(_ configuration: BridgeConfiguration, file: String) -> String {
        var parts = [
            "bridge \"\(configuration.bridge.name)\"", "prefix \"\(configuration.bridge.prefix)\"",
            "MQTT \(configuration.mqtt.host):\(configuration.mqtt.port)\(configuration.mqtt.usesTLS ? " (TLS)" : "")",
        ]
        if let zwave = configuration.zwave {
            let counts = "\(plural(zwave.devices.count, "device")), \(plural(zwave.scenes.count, "scene"))"
            parts.append("Z-Wave on \(zwave.port) (\(counts))")
        }
        if let cec = configuration.cec {
            parts.append("CEC on \(cec.port) (\(plural(cec.devices.count, "device")))")
        }
        return "\(file) is valid: " + parts.joined(separator: ", ")
    }

    /// `1 device`, `13 devices`.
    static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    private func printToStandardError(_ text: String) {
        writeStandardError(text + "\n")
    }
}
