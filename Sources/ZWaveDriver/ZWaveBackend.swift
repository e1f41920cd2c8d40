public import BridgeCore
internal import FoundationEssentials
internal import Glibc
public import Logging

/// The Z-Wave side of the bridge: turns `ZWaveEvent`s into `HardwareEvent`s and executes device commands
/// through `ZWaveDriver`.
///
/// A command returns when the device confirmed the new value (its report reached the library) or after
/// `confirmationTimeout`, so the bridge's per-device queue keeps exactly one command on the radio per
/// device and coalesces the rest.
///
/// The Greenwave PowerNode 6 puts the socket number in the destination endpoint byte, and OpenZWave 1.6
/// then files every report under instance 1. For such a node (manufacturer 0x0099) a report on instance 1
/// is attributed to the socket the bridge is waiting for (after a command or during a refresh sweep), and
/// an unsolicited one is never published as socket 1's: it triggers a debounced sweep that re-reads
/// every socket one at a time. The end of the node's interview sweeps at once (no debounce).
///
/// Report counting and waiting is `ReportWaiter`'s, the desired configuration `ConfigurationApplier`'s; the three
/// share the `ZWaveBackendActor`.
@ZWaveBackendActor
public final class ZWaveBackend: DeviceBackend {
    public nonisolated let adapter = Adapter.zwave
    /// Hardware events for the bridge; single consumer.
    public nonisolated let events: AsyncStream<HardwareEvent>
    let continuation: AsyncStream<HardwareEvent>.Continuation
    let driver: ZWaveDriver
    let configured: [ZWaveDeviceConfig]
    let logger: Logger
    let sweepDebounce: Duration
    /// Counts each value's reports and holds the commands waiting for them.
    let reports: ReportWaiter
    /// Applies devices.toml's configuration parameters after each node's interview.
    let configuration: ConfigurationApplier
    /// Nodes with the PowerNode endpoint quirk, and the socket whose report is expected on instance 1.
    var quirkyNodes: Set<NodeID> = []
    var expectedSocket: [NodeID: UInt8] = [:]
    /// One attribution window at a time per PowerNode: commands and sweeps take turns.
    var windowHolders: Set<NodeID> = []
    var windowWaiters: [NodeID: [CheckedContinuation<Void, Never>]] = [:]
    /// PowerNodes with a debounced sweep pending (cleared when any full sweep starts), and when each node's last
    /// full sweep started: a pending sweep asked for before then is skipped (that sweep already read every
    /// socket).
    var sweepRequested: Set<NodeID> = []
    var lastFullSweep: [NodeID: ContinuousClock.Instant] = [:]
    /// During one read of a sweep: the value it expects (on the socket in `expectedSocket`), and whether its
    /// report arrived. Any other report in that window, or a second one, is not the answer.
    var sweepRead: [NodeID: (commandClass: UInt8, index: UInt16, answered: Bool)] = [:]
    var identified: Set<DeviceSource> = []
    var discovered: Set<DeviceSource> = []
    /// The running controller command (inclusion, exclusion, failed-node removal), if any.
    var session: ControllerSession?
    var sessionCounter = 0
    /// Device commands waiting for the controller command to end (the library sends nothing meanwhile).
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
    /// Nodes whose interview completed (`nodeReady`) since the last re-interview started.
    var readyNodes: Set<NodeID> = []
    /// Nodes being re-interviewed, until when: OpenZWave may drop and re-add them
    /// (`Type_NodeRemoved`/`NodeAdded`), which is not a removal from the network.
    var refreshing: [NodeID: Date] = [:]
    /// Nodes whose interview did not finish: controlled with Basic Set until it does.
    var basicOnly: Set<NodeID> = []
    /// When each node last reported a value, and when that was last put in the inventory.
    var lastSeen: [NodeID: Date] = [:]
    var lastSeenPublished: [NodeID: Date] = [:]
    let (work, workContinuation) = AsyncStream.makeStream(of: Work.self, bufferingPolicy: .unbounded)
    let (sweeps, sweepContinuation) = AsyncStream.makeStream(of: SweepRequest.self, bufferingPolicy: .unbounded)

    enum Work: Sendable {
        case details(NodeID)
        case applyConfiguration(NodeID)
    }

    /// A sweep of one PowerNode, asked for at `requested`, to start at `due`; `reads`: which reads (a deferred
    /// meter read runs only while the node is in `metersDeferred`).
    struct SweepRequest: Sendable {
        var node: NodeID
        var requested: ContinuousClock.Instant
        var due: ContinuousClock.Instant
        var reads: SweepReads = .all
    }

    enum SweepReads: Sendable {
        case all, switches, deferredMeters
    }

    /// Whether the library finished its start-up queries of the network (AllNodesQueried); until then a
    /// PowerNode's sweep after its interview reads only the switches and its meters wait (in
    /// `metersDeferred`), so the states of the whole network come first. `meterDeferral` bounds the wait.
    var networkQueried = false
    var metersDeferred: Set<NodeID> = []
    static let meterDeferral: Duration = .seconds(60)

    /// An unsolicited report from a PowerNode still in its interview waits this long for a sweep: the sweep
    /// at the interview's end normally reads every socket first (and this one is then skipped).
    static let interviewSweepDelay: Duration = .seconds(10)

    static let greenwave = "0x0099"

    public nonisolated init(
        driver: ZWaveDriver, devices: [ZWaveDeviceConfig], logger: Logger,
        confirmationTimeout: Duration = .seconds(3), sweepDebounce: Duration = .milliseconds(300)
    ) {
        self.driver = driver
        self.configured = devices
        self.logger = logger
        self.sweepDebounce = sweepDebounce
        let reports = ReportWaiter(timeout: confirmationTimeout)
        self.reports = reports
        configuration = ConfigurationApplier(devices: devices, driver: driver, reports: reports, logger: logger)
        (events, continuation) = AsyncStream.makeStream(of: HardwareEvent.self, bufferingPolicy: .bufferingNewest(4096))
    }

    /// How long a command waits for the device's report.
    var confirmationTimeout: Duration { reports.timeout }

    /// Maps driver events until the driver's event stream ends (or the task is cancelled).
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await event in self.driver.events { await self.handle(event) }
                self.sweepContinuation.finish()
                self.workContinuation.finish()
            }
            group.addTask {
                for await item in self.work {
                    switch item {
                    case .details(let node): await self.publishDetails(node)
                    case .applyConfiguration(let node): await self.applyConfiguration(node)
                    }
                }
            }
            // Each sweep runs on its own: a debounce never holds up another, and the sweeps of different
            // PowerNodes interleave on the radio (each node's attribution window keeps its own in order).
            for await request in sweeps {
                group.addTask {
                    if request.due > .now {
                        guard (try? await Task.sleep(until: request.due, clock: .continuous)) != nil else { return }
                    }
                    await self.sweep(request)
                }
            }
            group.cancelAll()  // the events ended: pending sweeps are moot
        }
        continuation.finish()
    }

    // MARK: - Hardware → bridge

    func handle(_ event: ZWaveEvent) async {
        switch event {
        case .controllerCommand(let update):
            controllerUpdate(update)
        case .nodeNew(let node):
            sessionSawNode(node)
        case .driverReady:
            networkQueried = false
            continuation.yield(.adapterAvailability(adapter: adapter, online: true, reason: "driver ready"))
        case .adapterRecovered:
            continuation.yield(.adapterAvailability(adapter: adapter, online: true, reason: "recovered"))
        case .adapterLost(let reason):
            continuation.yield(.adapterAvailability(adapter: adapter, online: false, reason: reason))
            reports.wakeAll()
        case .driverFailed, .driverRemoved:
            break  // the driver's supervision reports these as adapterLost
        case .valueAdded(let value):
            identify(value)
            record(value, initial: true)
        case .valueChanged(let value):
            if let scene = Self.centralScene(value) {
                continuation.yield(
                    .scene(node: Int(value.id.node.rawValue), instance: Int(value.id.instance), sceneID: scene))
            }
            record(value, initial: false)
        case .valueRefreshed(let value):
            record(value, initial: false)
        case .sceneEvent(let node, let scene):
            continuation.yield(.scene(node: Int(node.rawValue), instance: nil, sceneID: Int(scene)))
        case .nodeDead(let node):
            continuation.yield(.availability(.zwave(node: Int(node.rawValue), instance: nil), online: false))
            reports.wakeWaiters(of: node)
        case .nodeAlive(let node):
            continuation.yield(.availability(.zwave(node: Int(node.rawValue), instance: nil), online: true))
        case .nodeAdded(let node):
            sessionSawNode(node)
            await publishDetails(node)
        case .nodeProtocolInfo(let node), .nodeNaming(let node), .essentialQueriesComplete(let node):
            await publishDetails(node)
        case .nodeReady(let node):
            readyNodes.insert(node)
            basicOnly.remove(node)
            await publishDetails(node)
            if quirkyNodes.contains(node) { sweepAfterInterview(node) }
            if configuration.takeOn(node) { workContinuation.yield(.applyConfiguration(node)) }
        case .nodeRemoved(let node) where (refreshing[node] ?? .distantPast) > Date():
            logger.debug("node dropped and re-added by the re-interview", metadata: ["node": "\(node.rawValue)"])
        case .nodeRemoved(let node), .nodeReset(let node):
            removeNode(node)
        case .awakeNodesQueried, .allNodesQueried:
            networkQueriesEnded()
        default:
            break
        }
    }

    /// Maps a value report to a state update, attributing PowerNode reports to the right socket.
    /// `initial`: the library created the value (from its cache or a default), no report was received.
    func record(_ value: ZWaveValue, initial: Bool) {
        let id = value.id
        if !initial { noteSeen(id.node) }
        var instance = id.instance
        let socketValue = id.commandClass == CommandClass.switchBinary || id.commandClass == CommandClass.meter
        if quirkyNodes.contains(id.node), socketValue, initial {
            return  // the sweep after the interview reads every socket
        }
        let update = Self.stateUpdate(value)
        if quirkyNodes.contains(id.node), instance == 1, socketValue {
            if update == nil {
                // A value the bridge does not publish (e.g. the meter's "exporting" flag).
                reports.reportArrived(id.key)
                return
            }
            if let read = sweepRead[id.node] {
                guard read.commandClass == id.commandClass, read.index == id.index, !read.answered else {
                    // Not the answer to the sweep's read (another value, or a second report of it): an unsolicited
                    // report of some socket, arriving in the window. Indistinguishable from the answer when it
                    // comes first, so whatever was attributed is checked by reading every socket again.
                    logger.debug(
                        "unattributable PowerNode report during a sweep",
                        metadata: ["node": "\(id.node.rawValue)", "value": "\(id.commandClass)/\(id.index)"])
                    requestSweep(id.node)
                    reports.reportArrived(id.key)
                    return
                }
                sweepRead[id.node]?.answered = true
            }
            if let socket = expectedSocket[id.node] {
                instance = socket
            } else {
                // Unsolicited (or the library's cached/initial value): it may be any socket's. Never publish
                // it as socket 1's; re-read every socket instead.
                requestSweep(id.node)
                reports.reportArrived(id.key)
                return
            }
        }
        let key = ZWaveValueKey(node: id.node, commandClass: id.commandClass, instance: instance, index: id.index)
        reports.reportArrived(key)
        guard let update else { return }
        continuation.yield(.update(.zwave(node: Int(id.node.rawValue), instance: Int(instance)), update))
    }

    /// A Central Scene (0x5B) notification as a scene id: `<scene> * 10 + <key attribute>` (0 pressed once,
    /// 1 released, 2 held down, 3 pressed twice, 4-6 pressed 3-5 times), e.g. `12` for scene 1 held. The
    /// library's value is the key attribute + 1 and returns to 0 (inactive), which is not an event.
    nonisolated static func centralScene(_ value: ZWaveValue) -> Int? {
        guard value.id.commandClass == CommandClass.centralScene, value.id.index > 0, value.id.index < 256 else {
            return nil
        }
        let attribute: Int32
        switch value.content {
        case .list(let v, _): attribute = v
        case .int(let v): attribute = v
        case .byte(let v): attribute = Int32(v)
        default: return nil
        }
        guard attribute > 0 else { return nil }
        return Int(value.id.index) * 10 + Int(attribute - 1)
    }

    nonisolated static func stateUpdate(_ value: ZWaveValue) -> HardwareEvent.StateUpdate? {
        switch (value.id.commandClass, value.id.index, value.content) {
        case (CommandClass.switchMultilevel, 0, .byte(let level)): return .level(Int(min(level, 99)))
        case (CommandClass.switchBinary, 0, .bool(let on)): return .isOn(on)
        case (CommandClass.meter, CommandClass.meterWattsIndex, .decimal(let watts, let precision)):
            return .power(DeviceState.Measurement(value: watts, precision: Int(precision)))
        case (CommandClass.meter, CommandClass.meterKWhIndex, .decimal(let kWh, let precision)):
            return .energy(DeviceState.Measurement(value: kWh, precision: Int(precision)))
        default: return nil
        }
    }

    /// A Switch Multilevel or Switch Binary value tells what a device is; nodes not in devices.toml
    /// appear as `unassigned/node<N>[_<instance>]`.
    func identify(_ value: ZWaveValue) {
        let id = value.id
        let node = Int(id.node.rawValue)
        guard value.id.index == 0 || id.commandClass == CommandClass.meter else { return }
        let nodeConfigured = configured.contains { $0.node == node }
        switch id.commandClass {
        case CommandClass.switchMultilevel, CommandClass.switchBinary:
            let multiChannel = id.commandClass == CommandClass.switchBinary && id.instance > 1
            let kind: DeviceKind =
                id.commandClass == CommandClass.switchMultilevel ? .dimmer : (multiChannel ? .socket : .binarySwitch)
            if nodeConfigured {
                let source = DeviceSource.zwave(node: node, instance: Int(id.instance))
                if identified.insert(source).inserted {
                    let instanceConfigured = configured.contains { $0.node == node && $0.instance != nil }
                    continuation.yield(
                        .identified(
                            source, kind: instanceConfigured && kind == .binarySwitch ? .socket : kind, metered: false))
                }
            } else if id.commandClass == CommandClass.switchBinary || id.instance == 1 {
                let instance: Int? = id.instance > 1 || multiChannel ? Int(id.instance) : nil
                let source = DeviceSource.zwave(node: node, instance: instance)
                guard discovered.insert(source).inserted else { return }
                continuation.yield(
                    .discovered(
                        DeviceDescriptor(
                            address: TopicScheme.unassignedAddress(node: node, instance: instance), kind: kind,
                            source: source, configured: false)))
            }
        default:
            break
        }
    }

    func publishDetails(_ node: NodeID) async {
        guard let info = try? await driver.nodeInfo(node) else { return }
        if info.manufacturerID.lowercased() == Self.greenwave, quirkyNodes.insert(node).inserted {
            logger.info(
                "PowerNode endpoint quirk: reports on instance 1 are attributed per socket",
                metadata: ["node": "\(node.rawValue)"])
        }
        continuation.yield(
            .details(
                .zwave(node: Int(node.rawValue), instance: nil),
                [
                    ("manufacturer", .string(info.manufacturerName)), ("product", .string(info.productName)),
                    ("manufacturer_id", .string(info.manufacturerID)), ("product_type", .string(info.productType)),
                    ("product_id", .string(info.productID)), ("interview_stage", .string(info.queryStage)),
                ] + (lastSeen[node].map { [("last_seen", .string(Self.timestamp($0)))] } ?? [])))
        lastSeenPublished[node] = lastSeen[node]
    }

    // MARK: - Bridge → hardware

    public nonisolated func execute(_ command: DeviceCommand, on device: DeviceDescriptor) async throws(CommandFailure)
    {
        guard case .zwave(let node, let instance) = device.source, let nodeID = UInt8(exactly: node) else {
            throw CommandFailure("\(device.address) is not a Z-Wave device")
        }
        // Inclusion freezes the library's normal traffic: hold the command until it ends (it always
        // ends, by completion, cancel or its timeout); the bridge's queue coalesces what arrives meanwhile.
        await waitUntilControllerIdle()
        try await perform(command, node: NodeID(nodeID), instance: UInt8(instance ?? 1), device: device)
    }

    /// The fast path (`DeviceBackend.send`): a level or switch Set to a node that needs none of the slow
    /// path's care (inclusion hold, Basic fallback, PowerNode attribution) is handed to OpenZWave at once, by
    /// the same call `perform` makes; the confirmation is the same wait.
    public func send(_ command: DeviceCommand, on device: DeviceDescriptor) async throws(CommandFailure)
        -> CommandConfirmation?
    {
        guard case .zwave(let node, let instance) = device.source, let nodeID = UInt8(exactly: node) else { return nil }
        let id = NodeID(nodeID)
        guard !controllerHoldsCommands, !basicOnly.contains(id), !quirkyNodes.contains(id),
            let sent = try set(command, node: id, instance: UInt8(instance ?? 1))
        else { return nil }
        return CommandConfirmation { await self.confirm(sent.key, after: sent.before) }
    }

    /// Hands a level (Switch Multilevel) or switch (Switch Binary) Set to OpenZWave, which queues it for its
    /// driver thread. Returns the value whose report confirms it and that value's generation before the Set;
    /// `nil` (nothing done) for any other command.
    func set(_ command: DeviceCommand, node: NodeID, instance: UInt8) throws(CommandFailure)
        -> (key: ZWaveValueKey, before: Int)?
    {
        let commandClass: UInt8
        switch command {
        case .level: commandClass = CommandClass.switchMultilevel
        case .on, .off: commandClass = CommandClass.switchBinary
        default: return nil
        }
        let key = ZWaveValueKey(node: node, commandClass: commandClass, instance: instance, index: 0)
        let before = reports.generation(of: key)
        do {
            if case .level(let level) = command {
                try driver.setLevel(node: node, instance: instance, level: UInt8(clamping: level))
            } else {
                try driver.setSwitch(node: node, instance: instance, on: command == .on)
            }
        } catch {
            throw CommandFailure("\(error)")
        }
        return (key, before)
    }

    func perform(_ command: DeviceCommand, node: NodeID, instance: UInt8, device: DeviceDescriptor)
        async throws(CommandFailure)
    {
        if basicOnly.contains(node), try await performBasic(command, node: node, instance: instance) { return }
        let quirky = quirkyNodes.contains(node)
        switch command {
        case .level:
            if let sent = try set(command, node: node, instance: instance) {
                await confirm(sent.key, after: sent.before)
            }
        case .on, .off:
            if quirky {
                await openAttributionWindow(node)
                expectedSocket[node] = instance
            }
            defer {
                if quirky {
                    expectedSocket[node] = nil
                    closeAttributionWindow(node)
                }
            }
            guard let sent = try set(command, node: node, instance: instance) else { return }
            await confirm(sent.key, after: sent.before)
            if quirky, reports.generation(of: sent.key) <= sent.before + 1 {
                // The library's verifying Get is answered on instance 1 as well: keep this socket's window
                // open for it, so it cannot land in the next command's or sweep's window as another socket's.
                _ = await reports.wait(for: sent.key, after: sent.before + 1, timeout: .seconds(1))
            }
        case .refresh:
            if quirky {
                await sweep(node, sockets: [instance])
            } else {
                for id in await driver.valueIDs(node: node)
                where id.instance == instance
                    && [CommandClass.switchMultilevel, CommandClass.switchBinary, CommandClass.meter].contains(
                        id.commandClass)
                {
                    try? await driver.refresh(id)
                }
            }
        case .toggle, .volume, .mute, .input:
            throw CommandFailure("\(command) is not supported by Z-Wave device \(device.address)")
        }
    }

    /// Waits for the device's report of `key` newer than generation `before` (or the timeout).
    func confirm(_ key: ZWaveValueKey, after before: Int) async {
        if !(await reports.wait(for: key, after: before)) {
            logger.debug("no report within the confirmation time", metadata: ["value": "\(key)"])
        }
    }

    // MARK: - PowerNode sweep

    /// Asks for a sweep after `sweepDebounce` (so a burst of reports costs one sweep), or, while the node's
    /// interview runs, after `interviewSweepDelay` (its end sweeps at once).
    func requestSweep(_ node: NodeID) {
        guard sweepRequested.insert(node).inserted else { return }
        let now = ContinuousClock.now
        let delay = readyNodes.contains(node) ? sweepDebounce : Self.interviewSweepDelay
        sweepContinuation.yield(SweepRequest(node: node, requested: now, due: now + delay))
    }

    func sweep(_ request: SweepRequest) async {
        if request.reads == .deferredMeters, metersDeferred.remove(request.node) == nil { return }
        await sweep(request.node, requested: request.requested, reads: request.reads)
    }

    /// The sweep at the end of a PowerNode's interview: at once, but during the network's start-up queries
    /// only the switches; the meters follow AllNodesQueried (or `meterDeferral`).
    func sweepAfterInterview(_ node: NodeID) {
        let now = ContinuousClock.now
        if networkQueried {
            sweepContinuation.yield(SweepRequest(node: node, requested: now, due: now))
            return
        }
        sweepContinuation.yield(SweepRequest(node: node, requested: now, due: now, reads: .switches))
        if metersDeferred.insert(node).inserted {
            sweepContinuation.yield(
                SweepRequest(node: node, requested: now, due: now + Self.meterDeferral, reads: .deferredMeters))
        }
    }

    /// The library's start-up queries ended: the deferred meter reads run now.
    func networkQueriesEnded() {
        networkQueried = true
        let now = ContinuousClock.now
        for node in metersDeferred.sorted(by: { $0.rawValue < $1.rawValue }) {
            sweepContinuation.yield(SweepRequest(node: node, requested: now, due: now, reads: .deferredMeters))
        }
    }

    /// Re-reads each socket, one read at a time, attributing the reports that land on instance 1 to the socket
    /// being read: first every socket's switch (the state users see), then every socket's meters.
    /// `requested`: when the full sweep was asked for; it is skipped if another started since (a sweep of
    /// the switches whose meters are deferred counts as full).
    func sweep(
        _ node: NodeID, requested: ContinuousClock.Instant? = nil, sockets: [UInt8]? = nil,
        reads: SweepReads = .all
    ) async {
        func superseded() -> Bool {
            guard sockets == nil, reads != .deferredMeters, let requested, let last = lastFullSweep[node] else {
                return false
            }
            return last >= requested
        }
        if superseded() { return }
        await openAttributionWindow(node)
        defer {
            expectedSocket[node] = nil
            sweepRead[node] = nil
            closeAttributionWindow(node)
        }
        if superseded() { return }
        if sockets == nil, reads != .deferredMeters {
            lastFullSweep[node] = .now
            sweepRequested.remove(node)  // a pending request is older: moot; a report from now on asks again
        }
        let ids = await driver.valueIDs(node: node)
        let instances =
            sockets ?? Array(Set(ids.filter { $0.commandClass == CommandClass.switchBinary }.map(\.instance))).sorted()
        for socket in instances where reads != .deferredMeters {
            guard
                let switchID = ids.first(where: {
                    $0.commandClass == CommandClass.switchBinary && $0.instance == socket && $0.index == 0
                })
            else { continue }
            expectedSocket[node] = socket
            sweepRead[node] = (CommandClass.switchBinary, 0, false)
            let key = ZWaveValueKey(node: node, commandClass: CommandClass.switchBinary, instance: socket, index: 0)
            let before = reports.generation(of: key)
            if (try? await driver.refresh(switchID)) != nil { _ = await reports.wait(for: key, after: before) }
        }
        // The library only created meter values for instance 1 (the supported reports landed there), so
        // each socket's meter is asked for directly: Multi Channel encapsulated Meter Get, W then kWh.
        for socket in instances where reads != .switches {
            expectedSocket[node] = socket
            for (index, scale) in [(CommandClass.meterWattsIndex, UInt8(2)), (CommandClass.meterKWhIndex, UInt8(0))] {
                let key = ZWaveValueKey(node: node, commandClass: CommandClass.meter, instance: socket, index: index)
                let before = reports.generation(of: key)
                sweepRead[node] = (CommandClass.meter, index, false)
                let get: [UInt8] = [
                    CommandClass.multiChannel, CommandClass.multiChannelEncapsulation, 0x01, socket, CommandClass.meter,
                    CommandClass.meterGet, scale << 3,
                ]
                if (try? await driver.sendRaw(node: node, command: get)) != nil {
                    _ = await reports.wait(for: key, after: before)
                }
            }
        }
    }

    /// Waits until no command or sweep holds `node`'s attribution window, then holds it.
    func openAttributionWindow(_ node: NodeID) async {
        guard windowHolders.contains(node) else {
            windowHolders.insert(node)
            return
        }
        await withCheckedContinuation { windowWaiters[node, default: []].append($0) }
    }

    /// Hands the window to the next waiter, or frees it.
    func closeAttributionWindow(_ node: NodeID) {
        if var waiting = windowWaiters[node], !waiting.isEmpty {
            let next = waiting.removeFirst()
            windowWaiters[node] = waiting.isEmpty ? nil : waiting
            next.resume()
        } else {
            windowHolders.remove(node)
        }
    }

    // MARK: - Desired configuration

    /// Applies the desired configuration of `node` and reports it.
    func applyConfiguration(_ node: NodeID) async {
        continuation.yield(.event(await configuration.apply(node)))
    }
}

extension DeviceSource {
    /// The Z-Wave node of a source, or nil.
    var node: Int? {
        if case .zwave(let node, _) = self { return node }
        return nil
    }
}
