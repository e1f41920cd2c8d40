public import BridgeCore
internal import FoundationEssentials
internal import Glibc

/// The Z-Wave part of the bridge API (`<prefix>/bridge/<bridge>/request/<command>`): inclusion,
/// exclusion, re-interview, heal, failed-node removal here; the rest dispatched to their owners (configuration
/// parameters and associations: `ConfigurationApplier`; statistics, neighbours, health check: `MeshMonitor`).
///
/// A request's events go through its `progress` sink: those its code makes (`node_added`, the interview's and the
/// health check's progress), and those the library's notifications bring for the node it works on (the controller's
/// progress, the node's details and devices as it joins or is re-interviewed, its devices' removal as it leaves),
/// which the request claims (`EventRouter`). So the bridge publishes each request's events before its response.
extension ZWaveBackend: BridgeRequestHandler {
    public nonisolated var verbs: Set<BridgeRequest.Verb> {
        [
            .include, .exclude, .cancel, .refresh, .heal, .removeFailed, .getConfig, .setConfig, .nodeStatistics,
            .configList, .values, .network, .associations, .associate, .dissociate, .neighbors, .networkStats,
            .healthCheck,
        ]
    }

    /// Runs a request the core parsed and validated; what only the library knows (whether a node exists, a
    /// parameter's size) is checked here.
    public func handle(
        _ request: BridgeRequest, progress: RequestProgress
    ) async throws(RequestFailure) -> RequestResult {
        switch request {
        case .include(let timeout, let secure, let interview):
            return .inclusion(
                try await include(
                    timeout: timeout, secure: secure, interviewTimeout: .seconds(interview), progress: progress))
        case .exclude(let timeout):
            return .excluded(node: try await exclude(timeout: timeout, progress: progress))
        case .network:
            return .network(await network())
        case .cancel:
            let cancelled = await sessions.cancel()
            return .cancelled(operation: cancelled)
        case .refresh(let node, let interview):
            return .inclusion(
                try await refresh(
                    try await knownNode(node), interviewTimeout: .seconds(interview), progress: progress))
        case .heal(let number):
            var node: NodeID?
            if let number { node = try await knownNode(number) }
            do {
                try await driver.heal(node: node, returnRoutes: true)
            } catch {
                throw RequestFailure("heal failed: \(error)")
            }
            return .healStarted(node: node.map { Int($0.rawValue) })
        case .removeFailed(let number):
            let node = try await knownNode(number)
            let outcome = try await runControllerCommand(.removeFailed, timeout: .seconds(60), progress: progress) {
                () async throws(ZWaveError) in
                try await driver.removeFailed(node: node)
            }
            guard case .completed = outcome else { throw RequestFailure(Self.explain(outcome, "removal of \(node)")) }
            return .failedNodeRemoved(node: Int(node.rawValue))
        case .getConfig(let node, let parameter):
            return .configParameter(
                try await configuration.getConfig(try await knownNode(node), parameter: UInt8(clamping: parameter)))
        case .setConfig(let node, let parameter, let value, let size):
            return .configParameter(
                try await configuration.setConfig(
                    try await knownNode(node), parameter: UInt8(clamping: parameter), value: value,
                    size: UInt8(clamping: size)))
        case .nodeStatistics(let number):
            return .nodeStatistics(try await mesh.nodeStatistics(node: number))
        case .configList(let number):
            return .configParameters(try await configuration.configList(try await knownNode(number)))
        case .nodeValues(let number):
            return .nodeValues(await nodeValues(try await knownNode(number)))
        case .associations(let number):
            return .associations(try await configuration.associations(try await knownNode(number)))
        case .associate(let number, let group, let target):
            let changed = try await configuration.associate(try await knownNode(number), group: group, target: target)
            return .associationGroup(node: number, changed)
        case .dissociate(let number, let group, let target):
            let changed = try await configuration.dissociate(try await knownNode(number), group: group, target: target)
            return .associationGroup(node: number, changed)
        case .neighbors(let node, let refresh):
            return .neighbors(try await mesh.neighbors(node: node, refresh: refresh))
        case .networkStats:
            return .networkStatistics(try await mesh.networkStatistics())
        case .healthCheck(let node, let frames):
            return .healthCheck(try await mesh.healthCheck(node: node, frames: frames, progress: progress))
        case .devices, .cecTransmit:
            throw RequestFailure("\(request.verb) is not a Z-Wave request")
        }
    }

    // MARK: - Inclusion and exclusion

    /// `include`: the controller's progress and the new node's events go through `progress` (`ControllerSessions`
    /// claims the node once the controller names it), then `node_added` and the interview's progress.
    func include(
        timeout: Int, secure: Bool, interviewTimeout: Duration, progress: RequestProgress
    ) async throws(RequestFailure) -> InclusionOutcome {
        if secure, !driver.hasNetworkKey {
            // OpenZWave would start inclusion and silently include the device without security.
            throw RequestFailure(
                "secure inclusion needs a Z-Wave network key, and none is configured: set [zwave] network_key_file")
        }
        let outcome = try await runControllerCommand(.include, timeout: .seconds(timeout), progress: progress) {
            () async throws(ZWaveError) in
            try await driver.include(secure: secure)
        }
        guard case .completed(let joined) = outcome, let node = joined else {
            let reason =
                outcome == .timedOut || outcome == .completed(nil)
                ? "no device joined within \(timeout) s; the controller left inclusion mode"
                : Self.explain(outcome, "inclusion")
            progress.emit(.controllerFailed(.inclusion, reason: reason))
            throw RequestFailure(reason)
        }
        progress.emit(.nodeAdded(node: Int(node.rawValue)))
        let result = await interview.watch(node, timeout: interviewTimeout, progress: progress)
        if !result.completed { await enableBasicControl(node) }
        return await interview.inclusionResult(node, interview: result)
    }

    /// `exclude`: the number of the node that left. Its removal (its devices' retained topics cleared, the inventory,
    /// `node_removed`) goes through `progress` before this returns (`ControllerSessions.removed(_:)`).
    func exclude(timeout: Int, progress: RequestProgress) async throws(RequestFailure) -> Int {
        let outcome = try await runControllerCommand(.exclude, timeout: .seconds(timeout), progress: progress) {
            () async throws(ZWaveError) in
            try await driver.exclude()
        }
        guard case .completed(let left) = outcome, let node = left else {
            let reason =
                outcome == .timedOut || outcome == .completed(nil)
                ? "no device left within \(timeout) s; the controller left exclusion mode"
                : Self.explain(outcome, "exclusion")
            progress.emit(.controllerFailed(.exclusion, reason: reason))
            throw RequestFailure(reason)
        }
        return Int(node.rawValue)
    }

    /// `refresh`: re-interviews the node and waits for the result; the node is the request's meanwhile (its details
    /// and reports go through `progress`).
    func refresh(
        _ node: NodeID, interviewTimeout: Duration, progress: RequestProgress
    ) async throws(RequestFailure) -> InclusionOutcome {
        router.claim(node, for: progress)
        interview.startRefresh(node)
        // A late drop/re-add of the reloaded node is still part of the refresh.
        defer { interview.endRefresh(node) }
        try await interview.reinterview(node)
        let result = await interview.watch(node, timeout: interviewTimeout, progress: progress)
        if !result.completed { await enableBasicControl(node) }
        return await interview.inclusionResult(node, interview: result)
    }

    /// Runs a controller command (`ControllerSessions.run`); none starts while a health check runs.
    func runControllerCommand(
        _ kind: ControllerSession.Kind, timeout: Duration, progress: RequestProgress,
        start: () async throws(ZWaveError) -> Void
    ) async throws(RequestFailure) -> ControllerSession.Outcome {
        try await sessions.run(
            kind, timeout: timeout, healthCheckRunning: mesh.healthCheckRunning, progress: progress, start: start)
    }

    static func explain(_ outcome: ControllerSession.Outcome, _ what: String) -> String {
        switch outcome {
        case .completed: "\(what) completed"
        case .cancelled: "\(what) cancelled"
        case .bridgeStopping: "\(what) cancelled: \(CommandFailure.bridgeStopping.reason)"
        case .timedOut: "\(what) timed out"
        case .failed(let reason): "\(what) failed: \(reason)"
        }
    }

    // MARK: - Arguments

    /// The request's `node`, which the library must know.
    func knownNode(_ number: Int) async throws(RequestFailure) -> NodeID {
        try await Self.knownNode(number, on: driver)
    }

    /// The request's `node`, which `driver` must know.
    static func knownNode(_ number: Int, on driver: OpenZWave) async throws(RequestFailure) -> NodeID {
        guard let byte = UInt8(exactly: number), (1...232).contains(byte) else {
            throw RequestFailure("node \(number) is not a Z-Wave node id (1...232)")
        }
        let node = NodeID(byte)
        let info = try? await driver.nodeInfo(node)
        let known =
            !(await driver.valueIDs(node: node)).isEmpty
            || (info.map { !$0.queryStage.isEmpty && $0.queryStage != "Unknown" && !$0.type.isEmpty } ?? false)
        guard known else {
            throw RequestFailure("node \(number) is not in the Z-Wave network")
        }
        return node
    }
}

extension ZWaveBackend {
    /// The `network` request: the home id and controller while the stick is ready, the running OpenZWave's version,
    /// and the library patches in force (``LibraryPatches``) or why none is.
    func network() async -> NetworkInfo {
        let patches = await driver.libraryPatches
        let home = await driver.homeID
        let controller = await driver.controllerNode
        return NetworkInfo(
            homeID: home.map { "\($0)" }, controller: controller.map { Int($0.rawValue) },
            openZWave: patches.libraryVersion, patchesWrittenFor: LibraryPatches.writtenFor,
            patches: patches.active.map(\.rawValue), patchesRefused: patches.refusal)
    }
}

extension ZWaveBackend {
    /// `values`: every value OpenZWave has for the node, by command class, instance and index, as it last knew them
    /// (asks the device nothing): what the bridge maps to topics and what no kind claims alike; and the `set_config`s
    /// held for its next wake-up.
    func nodeValues(_ node: NodeID) async -> NodeValues {
        var values: [NodeValue] = []
        for id in await driver.valueIDs(node: node) {
            guard let value = try? await driver.read(id) else { continue }
            values.append(
                NodeValue(
                    commandClass: Int(id.commandClass), instance: Int(id.instance), index: Int(id.index),
                    genre: Self.genreName(id.genre), label: value.label, reading: Self.reading(value.content),
                    units: value.units, readOnly: value.readOnly))
        }
        let number = Int(node.rawValue)
        return NodeValues(
            node: number, values: values, pending: configuration.wakeUpQueue.held.filter { $0.node == number })
    }

    nonisolated static func genreName(_ genre: ZWaveValueID.Genre) -> String {
        switch genre {
        case .basic: "basic"
        case .user: "user"
        case .config: "config"
        case .system: "system"
        case .unknown: "unknown"
        }
    }

    nonisolated static func reading(_ content: ZWaveValue.Content) -> NodeValue.Reading {
        switch content {
        case .bool(let flag): .bool(flag)
        case .byte(let number): .integer(Int(number))
        case .short(let number): .integer(Int(number))
        case .int(let number): .integer(Int(number))
        case .decimal(let number, _): .decimal(number)
        case .string(let text), .other(let text): .text(text)
        case .list(_, let label): .text(label)
        case .unavailable: .none
        }
    }
}
