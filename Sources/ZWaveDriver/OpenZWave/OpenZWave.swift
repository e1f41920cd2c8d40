internal import BridgeCore
internal import CZWaveShim
internal import FoundationEssentials
public import Logging
internal import SystemSupport

/// The bridge's handle on the OpenZWave library (through the C shim): the process-wide Manager, one driver on one
/// serial port, the notification watcher and a watchdog that restarts the driver when the stick goes silent.
///
/// The actor runs on its own serial dispatch queue, so OpenZWave's blocking calls never occupy the
/// cooperative pool. OpenZWave calls back on its driver thread (and on this queue during RemoveDriver
/// and Destroy); those callbacks only copy data and yield to a stream.
///
/// Use: create it, iterate `events` in one task, and `await run()` in another (a task group or
/// ServiceGroup); commands work between `driverReady` and the end of `run()`. Cancelling `run()` writes
/// the cache, removes the driver and destroys the Manager. OpenZWave allows one Manager per process:
/// a second running driver fails with `.managerExists`.
public actor OpenZWave {
    /// Everything the network reports, in order, plus `adapterLost`/`adapterRecovered`. Single consumer; nothing
    /// is dropped: like OpenZWave's own notification queue (a list in its Driver) it holds what the library reported
    /// and the consumer has not taken yet, at most about one event per value of the network in a start from the
    /// network cache. Finishes when `run()` returns.
    public nonisolated var events: AsyncStream<ZWaveEvent> { sink.events }

    let configuration: ZWaveDriverConfiguration
    let logger: Logger
    /// The callbacks' context; owns the event streams.
    let sink: NotificationSink
    private nonisolated let executor = DispatchQueueExecutor(label: "thuis.zwave-driver")
    /// How often the actor has woken up so far (jobs given to its queue); tests read it.
    nonisolated var executorJobs: Int { executor.jobsEnqueued }

    var runState = RunState.idle
    var manager: OpaquePointer?
    /// The retained sink passed to the shim as callback context; released after zw_manager_destroy.
    var sinkContext: Unmanaged<NotificationSink>?
    /// The watchdog's state: the driver's phase, the outage, the restarts, the cache-write deferral.
    var supervision = Supervision()
    /// Set when the shim refused to free OpenZWave's node cache copies (a library layout it does not know).
    var nodeCacheCopiesKept = false
    /// The library patches in force (decided when OpenZWave starts).
    var patches = LibraryPatches(libraryVersion: "not started", active: [], refusal: "OpenZWave is not started")
    /// The network the driver runs: home id, controller, value ids.
    var network = NetworkView()

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// - Parameters:
    ///   - configuration: port, paths, log level, watchdog timings.
    ///   - logger: receives the driver's messages and OpenZWave's own log lines (source `OpenZWave`).
    public init(configuration: ZWaveDriverConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        sink = NotificationSink(logger: logger)
    }

    /// The network's home id while the driver is ready.
    public var homeID: HomeID? { network.home }
    /// The controller's node id while the driver is ready.
    public var controllerNode: NodeID? { network.controller }
    /// The network's home id while a driver runs.
    var home: HomeID? { network.home }
    /// Whether the driver is ready (DriverReady seen, not lost since).
    public var isReady: Bool { if case .ready = supervision.phase { true } else { false } }

    /// Starts OpenZWave (`zw_manager_create`, `zw_add_driver`) and supervises it until cancelled; then
    /// tears it down (`zw_write_config`, `zw_remove_driver`, `zw_manager_destroy`) and finishes `events`.
    /// Throws when OpenZWave cannot be started at all (another Manager exists, bad paths).
    public func run() async throws(ZWaveError) {
        guard case .idle = runState else { throw ZWaveError(.alreadyRunning, call: "OpenZWave.run") }
        runState = .running
        do {
            try start()
        } catch {
            stop()
            throw error
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.pump() }
            group.addTask { await self.supervise() }
            _ = await group.next()
            group.cancelAll()
        }
        stop()
    }

    /// The library patches in force and the running library's version.
    public var libraryPatches: LibraryPatches { patches }

    private func start() throws(ZWaveError) {
        do {
            try FileManager.default.createDirectory(atPath: configuration.userPath, withIntermediateDirectories: true)
        } catch {
            throw ZWaveError(
                .userPath, call: "FileManager.createDirectory", message: "\(configuration.userPath): \(error)")
        }
        cacheCopy.restoreDamaged()
        patches = LibraryPatches.apply(
            writtenFor: configuration.patchesWrittenFor, enabled: configuration.libraryPatches)
        if patches.refusal == nil {
            logger.info(
                "OpenZWave patches applied",
                metadata: ["openzwave": "\(patches.libraryVersion)", "patches": "\(patches.summary)"])
        } else {
            logger.notice(
                "OpenZWave runs as shipped, without the bridge's patches",
                metadata: ["openzwave": "\(patches.libraryVersion)", "reason": "\(patches.refusal ?? "")"])
        }
        var options = zw_options()
        zw_options_init(&options)
        let level = configuration.openZWaveLogLevel ?? ZWaveLogLevel(forwardingTo: logger.logLevel)
        options.log_level = Int32(level.rawValue)
        options.save_configuration = configuration.saveConfiguration
        options.poll_interval_ms = Int32(clamping: configuration.pollInterval.milliseconds)
        options.retry_timeout_ms = Int32(clamping: configuration.retryTimeout.milliseconds)
        // Unmanaged: the sink is retained here and released in stop() after zw_manager_destroy returned,
        // after which OpenZWave calls nothing back.
        let context = Unmanaged.passRetained(sink)
        let (status, handle) = Self.createManager(
            options: options, configPath: configuration.configPath, userPath: configuration.userPath,
            networkKey: configuration.networkKey?.openZWaveOption, context: context.toOpaque())
        guard status == ZW_OK, let handle else {
            context.release()
            try ZWaveError.check(status, call: "zw_manager_create")
            throw ZWaveError(.noManager, call: "zw_manager_create")
        }
        manager = handle
        sinkContext = context
        logger.info(
            "OpenZWave started",
            metadata: [
                "config": "\(configuration.configPath)",
                "user": "\(configuration.userPath)",
                "logLevel": "\(level)",
                "networkKey": "\(configuration.networkKey == nil ? "none" : "set")",
            ])
        try addDriver()
    }

    /// `zw_manager_create` with the notification and log trampolines into the sink behind `context`.
    private nonisolated static func createManager(
        options: zw_options, configPath: String, userPath: String, networkKey: String?,
        context: UnsafeMutableRawPointer
    ) -> (zw_status, OpaquePointer?) {
        var options = options
        var handle: OpaquePointer?
        let status = configPath.withCString { config in
            userPath.withCString { user in
                (networkKey ?? "").withCString { key in
                    options.config_path = config
                    options.user_path = user
                    options.network_key = key
                    return zw_manager_create(
                        &options,
                        { note, context in
                            guard let note, let context else { return }
                            let sink = Unmanaged<NotificationSink>.fromOpaque(context).takeUnretainedValue()
                            if let event = ZWaveEvent(note.pointee) { sink.deliver(event) }
                        },
                        { level, node, line, context in
                            guard let line, let context else { return }
                            let sink = Unmanaged<NotificationSink>.fromOpaque(context).takeUnretainedValue()
                            sink.log(level: level, node: node, line: String(cString: line))
                        }, context, &handle)
                }
            }
        }
        return (status, handle)
    }

    /// The last complete network cache, kept beside OpenZWave's own and put back at start when that one is cut.
    var cacheCopy: NetworkCacheCopy { NetworkCacheCopy(directory: configuration.userPath, logger: logger) }

    /// Whether a network key is configured (S0 `secure` inclusion can work).
    public nonisolated var hasNetworkKey: Bool { configuration.networkKey != nil }

    /// Tears everything down; idempotent.
    private func stop() {
        sink.deliverDirectly()
        if let manager {
            if let home, case .ready = supervision.phase {
                do {
                    try ZWaveError.check(zw_write_config(manager, home.rawValue), call: "zw_write_config")
                } catch {
                    logger.warning("could not write the network cache", metadata: ["error": "\(error)"])
                }
            }
            removeDriver()
            cacheCopy.keepComplete()  // the cache written above, or the one OpenZWave wrote as it removed the driver
            let started = ContinuousClock.now
            do {
                try ZWaveError.check(zw_manager_destroy(manager), call: "zw_manager_destroy")
            } catch {
                logger.error("OpenZWave teardown failed", metadata: ["error": "\(error)"])
            }
            logger.info("OpenZWave stopped", metadata: ["destroy": "\(ContinuousClock.now - started)"])
        }
        manager = nil
        endCacheDeferral()
        sinkContext?.release()
        sinkContext = nil
        supervision.phase = .stopped
        network.forget()
        runState = .finished
        sink.finish()
    }

    /// Hands the port to OpenZWave (`zw_add_driver`); while the port does not exist (no stick plugged in, at
    /// start or after an unplug) reports the outage instead and leaves it to the watchdog, which adds the
    /// driver once the port appears (OpenZWave itself would retry opening it every 5 s, for ever).
    func addDriver() throws(ZWaveError) {
        guard let manager else { throw ZWaveError(.notRunning, call: "zw_add_driver") }
        guard portExists else {
            reportOutage(portMissingReason)
            supervision.phase = .backingOff(until: .now)
            logger.info("waiting for the Z-Wave port to appear", metadata: ["port": "\(configuration.port)"])
            return
        }
        deferCacheWrites()
        try ZWaveError.check(zw_add_driver(manager, configuration.port), call: "zw_add_driver")
        supervision.driverAdded = true
        supervision.phase = .waitingForReady(deadline: ContinuousClock.now + configuration.readyTimeout)
        logger.info("Z-Wave driver added", metadata: ["port": "\(configuration.port)"])
    }

    func removeDriver() {
        guard let manager, supervision.driverAdded else { return }
        supervision.driverAdded = false
        endCacheDeferral()
        let started = ContinuousClock.now
        do {
            try ZWaveError.check(zw_remove_driver(manager, configuration.port), call: "zw_remove_driver")
            supervision.pendingRemovals += 1
        } catch {
            logger.warning("could not remove the Z-Wave driver", metadata: ["error": "\(error)"])
        }
        logger.debug("Z-Wave driver removed", metadata: ["took": "\(ContinuousClock.now - started)"])
    }

    /// Whether the stick's device node (or its udev link) exists.
    var portExists: Bool { FileManager.default.fileExists(atPath: configuration.port) }

    /// The outage while the port does not exist.
    var portMissingReason: String { "the port \(configuration.port) does not exist (is the stick plugged in?)" }

    enum RunState { case idle, running, finished }

    enum Phase {
        case stopped
        case waitingForReady(deadline: ContinuousClock.Instant)
        case ready
        case backingOff(until: ContinuousClock.Instant)
        /// The driver reported DriverFailed: the outage is reported, the driver is removed at `until`.
        case failing(until: ContinuousClock.Instant, reason: String)
    }
}

extension Duration {
    /// Whole milliseconds, rounded down.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
