import ArgumentParser
import BridgeCore
import BridgeDaemon
import FoundationEssentials
internal import Glibc
internal import LabSupport
import Logging
import ServiceLifecycle
internal import SystemSupport

/// `thuis-lab demo [--exit-after <seconds>] [--broker host:port] [--config devices.toml]`: the whole
/// product without hardware. One process runs the Z-Wave and CEC emulators on private ptys, a private
/// mosquitto (a child process), the bridge exactly as `run` composes it (with the configuration pointed
/// at them), a live feed of the MQTT traffic, and a house that presses buttons now and then.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Run the bridge against an emulated house, with a live MQTT feed.",
        discussion: """
            Starts the Z-Wave emulator (the house network: nodes 2-9 as in devices.toml, node 10 waiting to \
            join), the CEC emulator (a TV with an Apple TV at 1.0.0.0 and an AVR), a private mosquitto on a \
            free 127.0.0.1 port unless --broker is given, and the bridge with devices.toml pointed at them. \
            Prints the mosquitto_sub/mosquitto_pub lines to watch and drive it, then a live feed of the MQTT \
            traffic (the bridge's inventory only when it changes) and of what the house does by itself. \
            Ctrl-C (or --exit-after) stops the bridge first, then the broker and the emulators.
            """)

    @Option(help: ArgumentHelp("Stop by itself after this many seconds (for scripts and CI).", valueName: "seconds"))
    var exitAfter: Int?
    @Option(help: ArgumentHelp("Use this broker instead of starting a private mosquitto.", valueName: "host:port"))
    var broker: String?
    @Option(name: .shortAndLong, help: ArgumentHelp("The configuration to emulate.", valueName: "file"))
    var config: String = "devices.toml"
    @Option(help: "Seed for what the emulated house does, and when.") var seed: UInt64 = 7
    @Option(help: ArgumentHelp("Level of the bridge's log file (default: [bridge] log_level).", valueName: "level"))
    var logLevel: String?

    func validate() throws {
        if let exitAfter, exitAfter <= 0 { throw ValidationError("--exit-after must be at least 1 second") }
        if let broker, Self.endpoint(broker) == nil {
            throw ValidationError(DemoError.badBrokerAddress(broker).description)
        }
        if let logLevel, Logger.Level(rawValue: logLevel.lowercased()) == nil {
            throw ValidationError("unknown log level \"\(logLevel)\"")
        }
    }

    func run() async throws {
        let signals = DemoSignals()
        let console = DemoConsole()
        let loaded: BridgeConfiguration
        do {
            loaded = try ConfigurationLoader.load(path: config)
        } catch {
            console.complain(
                "\(config): cannot run the demo with it (run it in the repository's directory, or pass --config)\n\(error.description)"
            )
            throw ExitCode(2)
        }
        let directory: String
        do {
            directory = try Self.makeDirectory()
        } catch {
            console.complain("cannot create the demo's temporary directory: \(error)")
            throw ExitCode(1)
        }
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let logFile = DemoLogFile(path: Path.join(directory, "bridge.log"))
        defer { logFile.close() }
        let level = logLevel.flatMap { Logger.Level(rawValue: $0.lowercased()) } ?? loaded.bridge.logLevel
        LoggingSystem.bootstrap { label in DemoFileLogHandler(logLevel: level, label: label, file: logFile) }
        let logger = Logger(label: "thuis-bridge")

        var started = DemoStarted()
        let configuration: BridgeConfiguration
        let composition: Composition
        let feed: DemoFeedService
        do {
            let emulators = try DemoEmulators(directory: directory)
            started.emulators = emulators
            let endpoint: (host: String, port: Int)
            if let broker, let given = Self.endpoint(broker) {
                endpoint = given
            } else {
                let privateBroker = try await Self.startBroker(directory: directory)
                started.broker = privateBroker
                endpoint = ("127.0.0.1", privateBroker.port)
            }
            configuration = Self.rewrite(
                loaded, host: endpoint.host, port: endpoint.port, emulators: emulators,
                stateDirectory: Path.join(directory, "state"))
            let setupCode = (try? configuration.homeKit?.setupCode?.read()) ?? "(see devices.toml)"
            composition = try Composition(
                configuration: configuration, logger: logger,
                onDashboardListening: { url in
                    console.line(.demo, "dashboard  \(url)   (open it in a browser)")
                },
                onHomeKitListening: { port in
                    console.line(
                        .demo, "homekit    port \(port), setup code \(setupCode)   (Home app: Add Accessory)")
                })
            let hint =
                Array(Self.driveCommands(configuration: configuration, emulators: emulators).prefix(2))
                + [Self.watchCommand(configuration: configuration) + "   # in another terminal"]
            feed = try DemoFeedService(configuration: configuration, readyHint: hint, console: console, logger: logger)
        } catch {
            console.complain("the demo cannot start: \(error)")
            await started.stop()
            throw ExitCode(1)
        }
        guard let emulators = started.emulators else {
            await started.stop()
            throw ExitCode(1)
        }

        console.say(
            Self.banner(
                configuration: configuration, emulators: emulators, privateBroker: started.broker != nil,
                logPath: logFile.path, exitAfter: exitAfter))
        let broker = started.broker
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: DemoCleanupService { emulators.stop() }),
            .init(service: DemoCleanupService { await broker?.stop() }),
            .init(service: feed),
        ]
        services += composition.services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) }
        services.append(
            .init(
                service: DemoHouseService(
                    house: DemoHouse(emulators: emulators, configuration: configuration), seed: seed,
                    firstDelay: .seconds(12), console: console)))
        services.append(
            .init(
                service: DemoStopService(signals: signals, exitAfter: exitAfter.map { .seconds($0) }, console: console),
                successTerminationBehavior: .gracefullyShutdownGroup))
        var groupConfiguration = ServiceGroupConfiguration(services: services, logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(30)
        let group = ServiceGroup(configuration: groupConfiguration)
        var failure: (any Error)?
        do {
            try await group.run()
        } catch {
            failure = error
            logger.error("the demo stopped with an error", metadata: ["error": "\(error)"])
        }
        await started.stop()
        if let failure {
            console.line(.demo, "stopped after an error: \(failure) (details in the log, removed with \(directory))")
            throw ExitCode(1)
        }
        console.line(.demo, "stopped cleanly; removed \(directory)")
    }

    /// `host:port` → its parts; nil when malformed.
    static func endpoint(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65_535).contains(port), colon > text.startIndex
        else { return nil }
        return (String(text[..<colon]), port)
    }

    /// The demo's private mosquitto on a free 127.0.0.1 port, its config and log in the demo's directory. It runs
    /// in a process group of its own, so the Ctrl-C that the terminal sends to the demo's group does not stop it
    /// before the bridge has said goodbye: the demo stops it, after the bridge.
    static func startBroker(directory: String) async throws(DemoError) -> MosquittoBroker {
        guard ChildProcess.locate("mosquitto") != nil else { throw .mosquittoMissing }
        do {
            return try await MosquittoBroker.start(
                MosquittoBroker.Options(
                    logTypes: ["error", "warning", "notice"], directory: directory, logToFile: true,
                    ownProcessGroup: true))
        } catch {
            throw .brokerNotReady(error.description)
        }
    }

    /// A private directory for the ptys, the broker's config, the bridge's state and log.
    static func makeDirectory() throws -> String {
        let path = Path.join(
            FileManager.default.temporaryDirectory.path, "thuis-demo-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        return path
    }
}

/// What the demo has started before the service group runs; `stop()` releases it whatever happened.
private struct DemoStarted {
    var emulators: DemoEmulators?
    var broker: MosquittoBroker?

    func stop() async {
        await broker?.stop()
        emulators?.stop()
    }
}
