internal import BridgeCore
internal import FoundationEssentials
internal import Logging

/// Controller commands (inclusion, exclusion, failed-node removal): the running one (`ControllerSession`), its
/// progress events, its end, and the device commands held while it runs (`HeldCommands`).
///
/// The progress arrives as the library's notifications, on the backend's event loop, and goes through the sink of
/// the request that runs the command (``ControllerSession/progress``); once the controller names the node it adds or
/// removes, the request claims that node (``EventRouter/claim(_:for:)``), so the node's events (its details and
/// devices as it joins, its devices' removal and `node_removed` as it leaves) go through that sink too, and the
/// response follows them. An exclusion or failed-node removal that completed ends only once the library reported
/// the node's removal (``removed(_:)``; OpenZWave reports an exclusion's `Completed` first), so its response follows
/// the removal by construction.
///
/// Owns the session, the session counter and a cancel that waits for the controller's confirmation as the bridge
/// stops. Shares the `ZWaveBackendActor` with `ZWaveBackend`, which composes it.
@ZWaveBackendActor
final class ControllerSessions {
    let driver: OpenZWave
    let logger: Logger
    let router: EventRouter
    /// The running controller command (inclusion, exclusion, failed-node removal), if any.
    private(set) var session: ControllerSession?
    private var sessionCounter = 0
    /// A controller command that was cancelled as the bridge stopped, until the controller confirms it (its
    /// session ended at once: nobody was left to wait); `leaveControllerMode()` waits for the confirmation.
    private var awaitingStopConfirmation: ControllerSession.Kind?
    /// Device commands waiting for the controller command to end (the library sends nothing meanwhile).
    let held = HeldCommands()

    nonisolated init(driver: OpenZWave, logger: Logger, router: EventRouter) {
        self.driver = driver
        self.logger = logger
        self.router = router
    }

    /// How long the controller may take to confirm a cancel before the command is considered ended.
    static let cancelGrace: Duration = .seconds(5)

    /// Starts `kind` with `start`, reports progress through `progress` and waits for its end: completion, failure,
    /// `cancel` or `timeout` (then the command is cancelled on the controller, which leaves inclusion/exclusion mode).
    /// `healthCheckRunning`: whether a health check runs now (then nothing starts).
    func run(
        _ kind: ControllerSession.Kind, timeout: Duration, healthCheckRunning: Bool, progress: RequestProgress,
        start: () async throws(ZWaveError) -> Void
    ) async throws(RequestFailure) -> ControllerSession.Outcome {
        if let running = session {
            throw RequestFailure("busy: \(running.kind.rawValue) is running; send cancel first")
        }
        if healthCheckRunning {
            throw RequestFailure("busy: a health check is running; try again when it completed")
        }
        sessionCounter += 1
        let id = sessionCounter
        session = ControllerSession(kind: kind, id: id, progress: progress)
        awaitingStopConfirmation = nil  // the controller took a new command: the old one ended
        do {
            try await start()
        } catch {
            endSession(nil)
            throw RequestFailure("cannot start \(kind.rawValue): \(error)")
        }
        logger.info("controller command started", metadata: ["command": "\(kind.rawValue)", "timeout": "\(timeout)"])
        let outcome = await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // Ends by the timeout, or early when the outcome arrived (then the session is gone) or the
                // request's task was cancelled (bridge shutdown: the controller still leaves inclusion mode).
                try? await Task.sleep(for: timeout)
                await self.expire(session: id, stopping: Task.isCancelled)
            }
            let outcome = await withCheckedContinuation { continuation in
                if let finished = session?.finished {
                    endSession(nil)
                    continuation.resume(returning: finished)
                } else {
                    session?.finish = continuation
                }
            }
            group.cancelAll()
            return outcome
        }
        logger.info("controller command ended", metadata: ["command": "\(kind.rawValue)", "outcome": "\(outcome)"])
        return outcome
    }

    /// The timer of session `id` fired, or its request's task was cancelled (`stopping`: the bridge stops): stops
    /// the command on the controller and ends the session after the controller confirmed it or the grace time
    /// passed. When stopping, the session ends at once (the request returns, the held commands have failed) and
    /// `leaveControllerMode()` waits for the confirmation before the driver is torn down.
    func expire(session id: Int, stopping: Bool) async {
        guard let running = session, running.id == id else { return }
        if running.awaitingRemoval {
            // The controller completed; only the library's report of the removal is missing (never seen with
            // OpenZWave 1.6, which queues it with the completion): the request is answered without it.
            logger.warning(
                "the library did not report the removal of the node the controller removed",
                metadata: ["command": "\(running.kind.rawValue)", "node": "\(running.node?.rawValue ?? 0)"])
            finishSession(.completed(running.node))
            return
        }
        await stopSession(stopping ? .bridgeStopping : .timedOut)
        if stopping {
            if let running = session, running.id == id {
                awaitingStopConfirmation = running.kind
                endSession(.bridgeStopping)
            }
            return
        }
        try? await Task.sleep(for: Self.cancelGrace)
        if session?.id == id { endSession(.timedOut) }
    }

    /// Before the driver is torn down (the daemon stops): a running inclusion or exclusion is cancelled on the
    /// controller, and the controller's confirmation of that cancel, or of the one sent as the bridge stopped, is
    /// awaited (at most `cancelGrace`), so the stick does not stay in inclusion mode after the bridge exited.
    func leaveControllerMode() async {
        guard await driver.isReady else {
            awaitingStopConfirmation = nil  // no driver: no controller command to leave
            return
        }
        if session != nil { _ = await cancel() }
        let deadline = ContinuousClock.now.advanced(by: Self.cancelGrace)
        while awaitingStopConfirmation != nil, !Task.isCancelled, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if let kind = awaitingStopConfirmation {
            awaitingStopConfirmation = nil
            logger.warning(
                "the controller did not confirm the end of the controller command",
                metadata: ["command": "\(kind.rawValue)", "grace": "\(Self.cancelGrace)"])
        }
    }

    /// `cancel`: stops the running controller command and returns once it ended (the controller confirmed,
    /// or the grace time passed); nil when none runs.
    func cancel() async -> String? {
        guard let running = session else { return nil }
        await stopSession(.cancelled)
        let deadline = ContinuousClock.now.advanced(by: Self.cancelGrace)
        while session?.id == running.id, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        if session?.id == running.id { endSession(.cancelled) }
        return running.kind.rawValue
    }

    /// Asks the controller to stop (`CancelControllerCommand`); the end is reported as `reason`.
    func stopSession(_ reason: ControllerSession.Outcome) async {
        guard session != nil, session?.stopReason == nil else { return }
        session?.stopReason = reason
        do {
            try await driver.cancelControllerCommand()
        } catch {
            logger.warning("cancel of the controller command failed", metadata: ["error": "\(error)"])
        }
    }

    /// Ends the session, hands `outcome` to the waiting request and releases the held device commands.
    func endSession(_ outcome: ControllerSession.Outcome?) {
        guard let current = session else { return }
        session = nil
        if let outcome, let finish = current.finish { finish.resume(returning: outcome) }
        held.releaseAll()
    }

    /// Whether device commands must wait: only inclusion and exclusion freeze the library's normal traffic.
    var controllerHoldsCommands: Bool {
        guard let kind = session?.kind else { return false }
        return kind == .include || kind == .exclude
    }

    /// Waits until no inclusion or exclusion runs (bounded by its timeout). Throws `bridge stopping` when the
    /// command's task is cancelled while it waits (the bridge stops): a held command is never sent blind.
    func waitUntilControllerIdle() async throws(CommandFailure) {
        guard controllerHoldsCommands else { return }
        logger.debug("device command held until the controller command ends", metadata: ["held": "\(held.count + 1)"])
        // Released as the bridge stops (its task cancelled meanwhile) counts as stopping too.
        guard await held.wait(), !Task.isCancelled else {
            logger.debug("held device command dropped: the bridge stops")
            throw .bridgeStopping
        }
    }

    /// A `Type_ControllerCommand` notification.
    func update(_ update: ZWaveControllerUpdate) {
        logger.debug(
            "controller command update",
            metadata: [
                "command": "\(update.command)", "state": "\(update.state)", "error": "\(update.error)",
                "node": "\(update.node.rawValue)",
            ])
        if let stopped = awaitingStopConfirmation, stopped.command == update.command,
            [.cancel, .completed, .failed, .error].contains(update.state)
        {
            awaitingStopConfirmation = nil
        }
        guard var current = session, current.kind.command == update.command else { return }
        let operation = current.kind.operation
        let progress = current.progress
        if let node = ControllerSession.valid(update.node) { learn(node, into: &current) }
        switch update.state {
        case .waiting:
            progress.emit(.controller(operation, .waiting))
        case .inProgress:
            if !current.nodeFoundReported {
                current.nodeFoundReported = true
                progress.emit(.controller(operation, .nodeFound))
            }
            if let node = current.node, !current.addingReported {
                current.addingReported = true
                progress.emit(.controller(operation, .node(Int(node.rawValue))))
            }
        case .completed:
            let node = current.node
            progress.emit(.controller(operation, .protocolDone(node: node.map { Int($0.rawValue) })))
            if node != nil, current.kind.removesNode, !current.removalReported {
                current.awaitingRemoval = true  // answered once the library reported the removal (`removed(_:)`)
                session = current
                return
            }
            session = current
            finishSession(
                current.stopReason != nil && node == nil ? current.stopReason ?? .cancelled : .completed(node))
            return
        case .cancel:
            session = current
            finishSession(current.stopReason ?? .cancelled)
            return
        case .failed, .error, .nodeFailed:
            session = current
            finishSession(
                current.stopReason ?? .failed("the controller reported \(update.state) (error: \(update.error))"))
            return
        case .nodeOK:
            session = current
            finishSession(.failed("node \(current.node?.rawValue ?? 0) is not failed: the controller still reaches it"))
            return
        default:
            break
        }
        session = current
    }

    /// Delivers the outcome to the waiting request, or keeps it until the request waits.
    func finishSession(_ outcome: ControllerSession.Outcome) {
        guard var current = session else { return }
        if current.finish != nil {
            endSession(outcome)
        } else {
            current.finished = outcome
            session = current
        }
    }

    /// `nodeNew`/`nodeAdded` while including: the node the controller is adding.
    func saw(_ node: NodeID) {
        guard var current = session, current.kind == .include, current.node == nil || current.node == node else {
            return
        }
        learn(node, into: &current)
        if !current.addingReported {
            current.addingReported = true
            if !current.nodeFoundReported {
                current.nodeFoundReported = true
                current.progress.emit(.controller(.inclusion, .nodeFound))
            }
            current.progress.emit(.controller(.inclusion, .node(Int(node.rawValue))))
        }
        session = current
    }

    /// The library is about to report `node`'s removal: during an exclusion (of any node so far unnamed) or a
    /// failed-node removal (of its node), the node is the request's, and so is the report.
    func removing(_ node: NodeID) {
        guard var current = session, current.kind.removesNode, current.node == nil || current.node == node else {
            return
        }
        learn(node, into: &current)
        session = current
    }

    /// The library's report of `node`'s removal went through the request's sink: an exclusion or failed-node removal
    /// that completed waiting for it ends now; one that has not completed yet will not wait.
    func removed(_ node: NodeID) {
        guard var current = session, current.kind.removesNode, current.node == node else { return }
        if current.awaitingRemoval {
            finishSession(.completed(node))
        } else {
            current.removalReported = true
            session = current
        }
    }

    /// The controller named the session's node: the request claims it (its events go through the request's sink).
    private func learn(_ node: NodeID, into current: inout ControllerSession) {
        if current.node != node { router.claim(node, for: current.progress) }
        current.node = node
    }
}
