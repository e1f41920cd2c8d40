/// Sweeps: re-reading every socket of a PowerNode one read at a time, each report attributed to the socket being
/// read. Asked for by an unsolicited report (debounced) and by the end of the node's interview (at once).
extension PowerNodeFraming {
    /// A sweep of one node, asked for at `requested`, to start at `due`; `reads`: which reads (a deferred meter
    /// read runs only while the node is in `metersDeferred`).
    struct SweepRequest: Sendable {
        var node: NodeID
        var requested: ContinuousClock.Instant
        var due: ContinuousClock.Instant
        var reads: SweepReads = .all
    }

    enum SweepReads: Sendable {
        case all, switches, deferredMeters
    }

    /// How long a node's meter reads wait for the network's start-up queries to end.
    static let meterDeferral: Duration = .seconds(60)
    /// An unsolicited report from a node still in its interview waits this long for a sweep: the sweep at the
    /// interview's end normally reads every socket first (and this one is then skipped).
    static let interviewSweepDelay: Duration = .seconds(10)

    /// Runs each requested sweep on its own task when it is due: a debounce never holds up another, and the sweeps
    /// of different nodes interleave on the radio (each node's attribution window keeps its own in order).
    /// Cancelling it drops the pending sweeps.
    func run() async {
        await withDiscardingTaskGroup { group in
            for await request in sweeps {
                group.addTask {
                    if request.due > .now {
                        guard (try? await Task.sleep(until: request.due, clock: .continuous)) != nil else { return }
                    }
                    await self.sweep(request)
                }
            }
            group.cancelAll()
        }
    }

    /// Asks for a sweep after `sweepDebounce` (so a burst of reports costs one sweep), or, while the node's
    /// interview runs, after `interviewSweepDelay` (its end sweeps at once).
    func requestSweep(_ node: NodeID, nodeReady: Bool) {
        guard sweepRequested.insert(node).inserted else { return }
        let now = ContinuousClock.now
        let delay = nodeReady ? sweepDebounce : Self.interviewSweepDelay
        sweepContinuation.yield(SweepRequest(node: node, requested: now, due: now + delay))
    }

    func sweep(_ request: SweepRequest) async {
        if request.reads == .deferredMeters, metersDeferred.remove(request.node) == nil { return }
        await sweep(request.node, requested: request.requested, reads: request.reads)
    }

    /// The sweep at the end of a node's interview: at once, but during the network's start-up queries only the
    /// switches; the meters follow AllNodesQueried (or `meterDeferral`).
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
    /// `requested`: when the full sweep was asked for; it is skipped if another started since (a sweep of the
    /// switches whose meters are deferred counts as full).
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
            windows.expectedSocket[node] = nil
            windows.sweepRead[node] = nil
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
            windows.expectedSocket[node] = socket
            windows.sweepRead[node] = (CommandClass.switchBinary, 0, false)
            let key = ZWaveValueKey(node: node, commandClass: CommandClass.switchBinary, instance: socket, index: 0)
            let before = reports.generation(of: key)
            if (try? await driver.refresh(switchID)) != nil { _ = await reports.wait(for: key, after: before) }
        }
        // The library only created meter values for instance 1 (the supported reports landed there), so each
        // socket's meter is asked for directly: Multi Channel encapsulated Meter Get, W then kWh.
        for socket in instances where reads != .switches {
            windows.expectedSocket[node] = socket
            for (index, scale) in [(CommandClass.meterWattsIndex, UInt8(2)), (CommandClass.meterKWhIndex, UInt8(0))] {
                let key = ZWaveValueKey(node: node, commandClass: CommandClass.meter, instance: socket, index: index)
                let before = reports.generation(of: key)
                windows.sweepRead[node] = (CommandClass.meter, index, false)
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
}
