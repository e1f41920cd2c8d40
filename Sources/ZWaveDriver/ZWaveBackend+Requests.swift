public import BridgeCore
internal import FoundationEssentials
internal import Glibc

/// The Z-Wave part of the bridge API (`<prefix>/bridge/<bridge>/request/<command>`): inclusion,
/// exclusion, re-interview, heal, failed-node removal and configuration parameters.
extension ZWaveBackend: BridgeRequestHandler {
    public nonisolated var verbs: Set<BridgeRequest.Verb> {
        [
            .include, .exclude, .cancel, .refresh, .heal, .removeFailed, .getConfig, .setConfig, .nodeStatistics,
            .configList, .network, .associations, .associate, .dissociate, .neighbors, .networkStats, .healthCheck,
        ]
    }

    /// Puts `marker` behind the events emitted so far: the bridge answers a request once it has published them.
    public func mark(_ marker: EventMarker) {
        if case .terminated = continuation.yield(.marker(marker)) { marker.reach() }
    }

    /// How long after a refresh a `Type_NodeRemoved` of the node is still taken as the library's reload.
    static let refreshGrace: Duration = .seconds(10)

    /// Runs a request the core parsed and validated; what only the library knows (whether a node exists, a
    /// parameter's size) is checked here.
    public func handle(_ request: BridgeRequest) async throws(RequestFailure) -> JSONValue {
        switch request {
        case .include(let timeout, let secure, let interview):
            return try await include(timeout: timeout, secure: secure, interviewTimeout: .seconds(interview))
        case .exclude(let timeout):
            return try await exclude(timeout: timeout)
        case .network:
            return await network()
        case .cancel:
            let cancelled = await cancelSession()
            return .object([("cancelled", cancelled.map { .string($0) } ?? .null)])
        case .refresh(let node, let interview):
            return try await refresh(try await knownNode(node), interviewTimeout: .seconds(interview))
        case .heal(let number):
            var node: NodeID?
            if let number { node = try await knownNode(number) }
            do {
                try await driver.heal(node: node, returnRoutes: true)
            } catch {
                throw RequestFailure("heal failed: \(error)")
            }
            return .object([("node", node.map { .int(Int($0.rawValue)) } ?? .null), ("started", true)])
        case .removeFailed(let number):
            let node = try await knownNode(number)
            let outcome = try await runControllerCommand(.removeFailed, timeout: .seconds(60)) {
                () async throws(ZWaveError) in
                try await driver.removeFailed(node: node)
            }
            guard case .completed = outcome else { throw RequestFailure(Self.explain(outcome, "removal of \(node)")) }
            return .object([("node", .int(Int(node.rawValue)))])
        case .getConfig(let node, let parameter):
            return try await getConfig(try await knownNode(node), parameter: UInt8(clamping: parameter))
        case .setConfig(let node, let parameter, let value, let size):
            return try await setConfig(
                try await knownNode(node), parameter: UInt8(clamping: parameter), value: value,
                size: UInt8(clamping: size))
        case .nodeStatistics(let number):
            let nodes: [NodeID]
            if let number {
                nodes = [try await knownNode(number)]
            } else {
                nodes = Set(await driver.valueIDs().map(\.node)).sorted { $0.rawValue < $1.rawValue }
            }
            var entries: [JSONValue] = []
            for node in nodes {
                do {
                    entries.append(Self.json(try await driver.nodeStatistics(node)))
                } catch {
                    throw RequestFailure("cannot read the statistics of \(node): \(error)")
                }
            }
            return .object([("nodes", .array(entries))])
        case .configList(let number):
            return try await configList(try await knownNode(number))
        case .associations(let number):
            return try await associations(try await knownNode(number))
        case .associate(let number, let group, let target):
            return try await associate(try await knownNode(number), group: group, target: target)
        case .dissociate(let number, let group, let target):
            return try await dissociate(try await knownNode(number), group: group, target: target)
        case .neighbors(let node, let refresh):
            return try await neighbors(node: node, refresh: refresh)
        case .networkStats:
            return try await networkStatistics()
        case .healthCheck(let node, let frames):
            return try await healthCheck(node: node, frames: frames)
        case .devices, .cecTransmit:
            throw RequestFailure("\(request.verb) is not a Z-Wave request")
        }
    }

    // MARK: - Inclusion and exclusion

    func include(timeout: Int, secure: Bool, interviewTimeout: Duration) async throws(RequestFailure) -> JSONValue {
        if secure, !driver.hasNetworkKey {
            // OpenZWave would start inclusion and silently include the device without security.
            throw RequestFailure(
                "secure inclusion needs a Z-Wave network key, and none is configured: set [zwave] network_key_file")
        }
        let outcome = try await runControllerCommand(.include, timeout: .seconds(timeout)) {
            () async throws(ZWaveError) in
            try await driver.include(secure: secure)
        }
        guard case .completed(let joined) = outcome, let node = joined else {
            let reason =
                outcome == .timedOut || outcome == .completed(nil)
                ? "no device joined within \(timeout) s; the controller left inclusion mode"
                : Self.explain(outcome, "inclusion")
            emit(.controllerFailed(.inclusion, reason: reason))
            throw RequestFailure(reason)
        }
        emit(.nodeAdded(node: Int(node.rawValue)))
        let interview = await watchInterview(node, timeout: interviewTimeout)
        if !interview.completed { await enableBasicControl(node) }
        return await inclusionResult(node, interview: interview)
    }

    func exclude(timeout: Int) async throws(RequestFailure) -> JSONValue {
        let outcome = try await runControllerCommand(.exclude, timeout: .seconds(timeout)) {
            () async throws(ZWaveError) in
            try await driver.exclude()
        }
        guard case .completed(let left) = outcome, let node = left else {
            let reason =
                outcome == .timedOut || outcome == .completed(nil)
                ? "no device left within \(timeout) s; the controller left exclusion mode"
                : Self.explain(outcome, "exclusion")
            emit(.controllerFailed(.exclusion, reason: reason))
            throw RequestFailure(reason)
        }
        // OpenZWave reports Type_NodeRemoved, which removes the node's devices (`removeNode`).
        return .object([("node", .int(Int(node.rawValue)))])
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

    // MARK: - Interview

    /// The end of an interview: completed, or the stage it stopped at.
    struct InterviewResult: Sendable {
        let completed: Bool
        let stage: String
    }

    /// Reports the interview stage by stage until the node is ready or `timeout` passes.
    func watchInterview(_ node: NodeID, timeout: Duration) async -> InterviewResult {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var lastStage = ""
        while true {
            let stage = (try? await driver.nodeInfo(node))?.queryStage ?? ""
            if !stage.isEmpty, stage != lastStage {
                lastStage = stage
                emit(.interviewProgress(node: Int(node.rawValue), stage: stage))
            }
            if readyNodes.contains(node), stage != "Complete" {
                readyNodes.remove(node)  // a stale completion of an interview the library restarted
            }
            if readyNodes.contains(node) || stage == "Complete" {
                let info = try? await driver.nodeInfo(node)
                emit(
                    .interviewCompleted(
                        node: Int(node.rawValue), manufacturer: info?.manufacturerName ?? "",
                        product: info?.productName ?? ""))
                return InterviewResult(completed: true, stage: "Complete")
            }
            if clock.now >= deadline || Task.isCancelled {
                let reason =
                    "the interview did not finish within \(timeout); the node works for basic control, `refresh` retries"
                emit(.interviewFailed(node: Int(node.rawValue), stage: lastStage, reason: reason))
                return InterviewResult(completed: false, stage: lastStage)
            }
            try? await Task.sleep(for: .milliseconds(200))
        }
    }

    /// `refresh`: re-interviews the node and waits for the result.
    func refresh(_ node: NodeID, interviewTimeout: Duration) async throws(RequestFailure) -> JSONValue {
        readyNodes.remove(node)
        refreshing[node] = .now + .seconds(1_000_000_000)  // until it ends, then the grace
        // A late drop/re-add of the reloaded node is still part of the refresh.
        defer { refreshing[node] = .now + Self.refreshGrace }
        do {
            try await driver.refreshNodeInfo(node: node)
        } catch {
            throw RequestFailure("refresh of \(node) failed: \(error)")
        }
        // The stage goes back to the start; wait until the library has left `Complete`, then forget any
        // completion of the previous interview that was still on its way.
        let restart = ContinuousClock().now.advanced(by: .seconds(2))
        while ContinuousClock().now < restart, (try? await driver.nodeInfo(node))?.queryStage == "Complete" {
            try? await Task.sleep(for: .milliseconds(50))
        }
        readyNodes.remove(node)
        let interview = await watchInterview(node, timeout: interviewTimeout)
        if !interview.completed { await enableBasicControl(node) }
        return await inclusionResult(node, interview: interview)
    }

    /// The node's identity, its interview result and a ready-to-paste devices.toml stanza.
    func inclusionResult(_ node: NodeID, interview: InterviewResult) async -> JSONValue {
        let info = try? await driver.nodeInfo(node)
        let stanza = Self.stanza(
            node: node, manufacturer: info?.manufacturerName ?? "", product: info?.productName ?? "",
            values: await driver.valueIDs(node: node))
        return .object([
            ("node", .int(Int(node.rawValue))), ("manufacturer", .string(info?.manufacturerName ?? "")),
            ("product", .string(info?.productName ?? "")), ("manufacturer_id", .string(info?.manufacturerID ?? "")),
            ("product_type", .string(info?.productType ?? "")), ("product_id", .string(info?.productID ?? "")),
            ("interview", .string(interview.completed ? "completed" : "failed")), ("stage", .string(interview.stage)),
            ("stanza", .string(stanza)),
        ])
    }

    /// One `[[zwave.device]]` per switch endpoint (a multi-channel device gets one per endpoint).
    static func stanza(node: NodeID, manufacturer: String, product: String, values: [ZWaveValueID]) -> String {
        let switches = values.filter {
            ($0.commandClass == CommandClass.switchBinary || $0.commandClass == CommandClass.switchMultilevel)
                && $0.index == 0
        }
        let instances = Array(Set(switches.map(\.instance))).sorted()
        let base = slug(product.isEmpty ? "node\(node.rawValue)" : product)
        let title = [manufacturer, product].filter { !$0.isEmpty }.joined(separator: " ")
        var out = "# node \(node.rawValue)\(title.isEmpty ? "" : ": " + title); choose the room and name\n"
        let endpoints: [UInt8?] = instances.count > 1 ? instances.map { $0 } : [nil]
        for (index, instance) in endpoints.enumerated() {
            if index > 0 { out += "\n" }
            out += "[[zwave.device]]\nnode = \(node.rawValue)\n"
            if let instance { out += "instance = \(instance)\n" }
            out += "room = \"room\"\nname = \"\(base)\(instance.map { "_\($0)" } ?? "")\"\n"
        }
        return out
    }

    /// `FGD212 Dimmer 2` → `fgd212_dimmer_2`.
    static func slug(_ text: String) -> String {
        var out = ""
        for scalar in text.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else if !out.isEmpty, !out.hasSuffix("_") {
                out += "_"
            }
        }
        while out.hasSuffix("_") { out.removeLast() }
        return out.isEmpty ? "device" : String(out.prefix(40))
    }

    // MARK: - Configuration parameters

    func configKey(_ node: NodeID, _ parameter: UInt8) -> ZWaveValueKey {
        ZWaveValueKey(node: node, commandClass: CommandClass.configuration, instance: 1, index: UInt16(parameter))
    }

    /// `get_config`: asks the device (Configuration Get) and returns what it reported.
    func getConfig(_ node: NodeID, parameter: UInt8) async throws(RequestFailure) -> JSONValue {
        let key = configKey(node, parameter)
        let before = reports.generation(of: key)
        do {
            try await driver.requestConfigParameter(node: node, parameter: parameter)
        } catch {
            throw RequestFailure("cannot ask \(node) for parameter \(parameter): \(error)")
        }
        guard await reports.wait(for: key, after: before) else {
            throw RequestFailure("\(node) did not report parameter \(parameter) within \(confirmationTimeout)")
        }
        return try await configValue(node, parameter: parameter)
    }

    /// `set_config`: sets the parameter (size from the request, else the library's known size, else 1
    /// byte), then reads it back from the device.
    func setConfig(_ node: NodeID, parameter: UInt8, value: Int32, size: UInt8) async throws(RequestFailure)
        -> JSONValue
    {
        let key = configKey(node, parameter)
        var chosen = size
        if chosen == 0 {
            if let id = await driver.valueID(for: key), let current = try? await driver.read(id) {
                chosen = current.content.integer.size
            } else {
                chosen = 1
            }
        }
        let limit = Int64(1) << (Int64(chosen) * 8 - 1)
        guard Int64(value) >= -limit, Int64(value) < limit * 2 else {
            throw RequestFailure("value \(value) does not fit in \(chosen) byte(s)")
        }
        do {
            try await driver.setConfigParameter(node: node, parameter: parameter, value: value, size: chosen)
        } catch {
            throw RequestFailure("cannot set parameter \(parameter) of \(node): \(error)")
        }
        return try await getConfig(node, parameter: parameter)
    }

    /// `config_list`: every configuration parameter OpenZWave knows for the node (from its device database and the
    /// device's reports), with its label and last known value; asks the device nothing.
    func configList(_ node: NodeID) async throws(RequestFailure) -> JSONValue {
        let ids = await driver.valueIDs(node: node).filter { $0.commandClass == CommandClass.configuration }
        var parameters: [JSONValue] = []
        for id in ids.sorted(by: { $0.index < $1.index }) {
            guard let value = try? await driver.read(id) else { continue }
            var fields: [(String, JSONValue)] = [("parameter", .int(Int(id.index))), ("label", .string(value.label))]
            let (number, size) = value.content.integer
            fields.append(("value", number.map { .int($0) } ?? .null))
            if case .list(_, let label) = value.content { fields.append(("choice", .string(label))) }
            if number != nil { fields.append(("size", .int(Int(size)))) }
            if !value.units.isEmpty { fields.append(("units", .string(value.units))) }
            fields.append(("read_only", .bool(value.readOnly)))
            parameters.append(.object(fields))
        }
        return .object([("node", .int(Int(node.rawValue))), ("parameters", .array(parameters))])
    }

    /// A node's statistics as the `node_stats` response shows them.
    static func json(_ stats: ZWaveNodeStatistics) -> JSONValue {
        let fields: [(String, JSONValue)] = [
            ("node", .int(Int(stats.node.rawValue))), ("sent", .int(stats.sent)),
            ("sent_failed", .int(stats.sentFailed)),
            ("retries", .int(stats.retries)), ("received", .int(stats.received)),
            ("received_duplicates", .int(stats.receivedDuplicates)),
            ("received_unsolicited", .int(stats.receivedUnsolicited)),
            ("average_request_rtt_ms", .int(stats.averageRequestRTT)),
            ("average_response_rtt_ms", .int(stats.averageResponseRTT)), ("quality", .int(stats.quality)),
            ("last_sent", .string(stats.sentAt)), ("last_received", .string(stats.receivedAt)),
        ]
        return .object(fields + routeJSON(stats.route))
    }

    func configValue(_ node: NodeID, parameter: UInt8) async throws(RequestFailure) -> JSONValue {
        guard let id = await driver.valueID(for: configKey(node, parameter)) else {
            throw RequestFailure("\(node) has no configuration parameter \(parameter)")
        }
        let current: ZWaveValue
        do {
            current = try await driver.read(id)
        } catch {
            throw RequestFailure("cannot read parameter \(parameter) of \(node): \(error)")
        }
        let (value, size) = current.content.integer
        guard let value else {
            throw RequestFailure("parameter \(parameter) of \(node) is not a number: \(current.content)")
        }
        return .object([
            ("node", .int(Int(node.rawValue))), ("parameter", .int(Int(parameter))), ("value", .int(value)),
            ("size", .int(Int(size))),
        ])
    }

    // MARK: - Arguments

    /// The request's `node`, which the library must know.
    func knownNode(_ number: Int) async throws(RequestFailure) -> NodeID {
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
    func network() async -> JSONValue {
        let patches = await driver.libraryPatches
        let home = await driver.homeID
        let controller = await driver.controllerNode
        return .object([
            ("home_id", home.map { .string("\($0)") } ?? .null),
            ("controller", controller.map { .int(Int($0.rawValue)) } ?? .null),
            ("openzwave", .string(patches.libraryVersion)),
            ("patches_written_for", .string(LibraryPatches.writtenFor)),
            ("patches", .array(patches.active.map { .string($0.rawValue) })),
            ("patches_refused", patches.refusal.map { .string($0) } ?? .null),
        ])
    }
}
