import ArgumentParser
import BridgeCore
import BridgeDaemon
import FoundationEssentials
internal import Glibc
import Logging
import MQTTDriver
import ServiceLifecycle
internal import SystemSupport
internal import UnixSignals
import ZWaveDriver

/// `thuis-bridge run [--config devices.toml]`: the daemon. Refuses an invalid devices.toml (exit 2)
/// before it touches any hardware or the broker.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run the bridge daemon.",
        discussion: "Stops cleanly on SIGTERM/SIGINT: every device and the bridge are marked offline first.")

    @Option(name: .shortAndLong, help: "The configuration file.") var config: String = "devices.toml"
    @Option(help: "Log level (trace, debug, info, notice, warning, error, critical); overrides [bridge] log_level.")
    var logLevel: String?
    /// For the benchmark only: memory measures to leave off, so that it can show what each one saves.
    @Option(
        help: ArgumentHelp(
            "Memory measures to leave off (\(MemoryTrick.allCases.map(\.rawValue).joined(separator: ", "))).",
            visibility: .hidden),
        transform: { list in
            guard let tricks = MemoryTrick.parse(list: list) else {
                throw ValidationError("unknown memory measure in \"\(list)\"")
            }
            return tricks
        })
    var without: Set<MemoryTrick> = []

    func run() async throws {
        let configuration: BridgeConfiguration
        do {
            configuration = try ConfigurationLoader.load(path: config)
        } catch {
            writeStandardError("\(config): refusing to start\n\(error.description)\n")
            throw ExitCode(2)
        }
        var level = configuration.bridge.logLevel
        if let logLevel {
            guard let parsed = Logger.Level(rawValue: logLevel.lowercased()) else {
                throw ValidationError("unknown log level \"\(logLevel)\"")
            }
            level = parsed
        }
        let chosenLevel = level
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = chosenLevel
            return handler
        }
        let logger = Logger(label: "thuis-bridge")
        let composition: Composition
        do {
            composition = try Composition(configuration: configuration, logger: logger, without: without)
        } catch {
            logger.critical("cannot start", metadata: ["error": "\(error)"])
            throw ExitCode(1)
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: composition.services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
