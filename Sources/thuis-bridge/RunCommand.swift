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
        // SIGTERM and SIGINT for the whole run, through one handler (a signal can have only one): they end the
        // name check (the broker may be away for long), or stop the services gracefully.
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        let stop = StopRequest()
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                for await _ in signals { await stop.request() }
            }
            defer { tasks.cancelAll() }
            try await runChecked(configuration, logger: logger, stop: stop)
        }
    }

    /// Checks the bridge name (``BridgeNameCheck``), before the bridge takes its client id or opens any hardware,
    /// then runs the services until `stop` is requested.
    private func runChecked(_ configuration: BridgeConfiguration, logger: Logger, stop: StopRequest) async throws {
        let own = ProcessIdentity.current()
        let check = BridgeNameCheck(configuration: configuration, own: own, logger: logger)
        let verdict = try await withThrowingTaskGroup(of: BridgeNameCheck.Verdict?.self) { group in
            group.addTask { try await check.run() }
            group.addTask {
                await stop.wait()
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        switch verdict {
        case nil:
            return  // stopped while waiting for the broker: nothing was started
        case .inUse(let why)?:
            logger.critical("refusing to start", metadata: ["reason": "\(why)"])
            writeStandardError("\(config): refusing to start: \(why)\n")
            throw ExitCode(2)
        case .free(let note)?:
            // A stale `online` was found: who held it, and why the name is taken over.
            if let note { logger.warning("bridge name taken over", metadata: ["stale": "\(note)"]) }
        }
        let composition: Composition
        do {
            let keepAlive = try Composition.mqttOptions(configuration).keepAlive
            composition = try Composition(
                configuration: configuration, logger: logger,
                announcement: BridgeNameCheck.announcement(own, keepAlive: keepAlive))
        } catch {
            logger.critical("cannot start", metadata: ["error": "\(error)"])
            throw ExitCode(1)
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: composition.services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
                gracefulShutdownSignals: [], logger: logger))
        await stop.forward(to: group)
        try await group.run()
    }
}

/// SIGTERM/SIGINT, as a request the run waits for or hands to its service group.
private actor StopRequest {
    private var requested = false
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiter = 0
    private var group: ServiceGroup?

    func request() async {
        requested = true
        for waiter in waiters.values { waiter.resume() }
        waiters = [:]
        await group?.triggerGracefulShutdown()
    }

    /// Returns once a stop is requested, or when the task is cancelled.
    func wait() async {
        nextWaiter += 1
        let id = nextWaiter
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if requested || Task.isCancelled {
                    continuation.resume()
                } else {
                    waiters[id] = continuation
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    private func cancelWaiter(_ id: Int) {
        waiters.removeValue(forKey: id)?.resume()
    }

    /// From now on a stop shuts `group` down gracefully (at once, when one was requested already).
    func forward(to group: ServiceGroup) async {
        self.group = group
        if requested { await group.triggerGracefulShutdown() }
    }
}
