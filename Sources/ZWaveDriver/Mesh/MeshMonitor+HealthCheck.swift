internal import BridgeCore
internal import FoundationEssentials

/// `health_check`: NoOperation frames to one node or each node in turn (`Manager::TestNetworkNode`, one frame at a
/// time so each frame's end and round trip are known), progress as `health_check_*` events, and per node the
/// frames sent, acknowledged and failed, the round trips and a ``HealthRating``. The progress goes through the request's
/// sink, so the response follows `health_check_completed`.
extension MeshMonitor {
    /// How long one NoOperation frame may take, counted from when it left for the stick, before it counts as failed
    /// (the library reports its end, acknowledged or not, long before that unless the stick stopped answering).
    static let noOperationTimeout: Duration = .seconds(10)

    /// How long a NoOperation frame may wait in OpenZWave's send queue (behind the library's own queries, a sleeping
    /// node's retries) before the check gives up on the node: the frame never left, so it is neither acknowledged
    /// nor failed.
    static let noOperationQueueLimit: Duration = .seconds(120)

    /// The counter the `noOperationCompleted` events of `node` advance (command class 0x00 is NoOperation).
    nonisolated static func noOperationKey(_ node: NodeID) -> ZWaveValueKey {
        ZWaveValueKey(node: node, commandClass: 0x00, instance: 0, index: 0)
    }

    func healthCheck(
        node number: Int?, frames: Int, progress: RequestProgress
    ) async throws(RequestFailure) -> HealthReport {
        if let running = sessions.session {
            throw RequestFailure("busy: \(running.kind.rawValue) is running; a health check waits for its end")
        }
        if healthCheckRunning { throw RequestFailure("busy: another health check is running") }
        let nodes: [NodeID]
        if let number {
            if let controller = await driver.controllerNode, Int(controller.rawValue) == number {
                throw RequestFailure("node \(number) is the controller itself; a health check tests the other nodes")
            }
            let node = try await ZWaveBackend.knownNode(number, on: driver)
            nodes = [node]
        } else {
            let controller = await driver.controllerNode
            nodes = interview.knownNodes.filter { $0 != controller }.sorted { $0.rawValue < $1.rawValue }
        }
        healthCheckRunning = true
        defer { healthCheckRunning = false }
        progress.emit(.healthCheck(.started(nodes: nodes.map { Int($0.rawValue) }, frames: frames)))
        var results: [NodeHealth] = []
        for node in nodes {
            if Task.isCancelled { break }
            let result = await test(node, frames: frames, progress: progress)
            progress.emit(.healthCheck(.node(result)))
            results.append(result)
        }
        progress.emit(.healthCheck(.completed(nodes: results.count)))
        return HealthReport(frames: frames, nodes: results)
    }

    /// One node's health: asleep (nothing sent), or `frames` NoOperation frames one after the other.
    func test(_ node: NodeID, frames: Int, progress: RequestProgress) async -> NodeHealth {
        let number = Int(node.rawValue)
        if Self.status(try? await driver.nodeInfo(node)) == .asleep {
            return NodeHealth(node: number, status: .asleep)
        }
        var result = NodeHealth(node: number, status: .tested)
        for frame in 1...frames {
            if Task.isCancelled { break }
            var rtt: Int?
            var waited: Int?
            switch await ping(node) {
            case .unsent(let reason):
                result.status = .unreachable
                result.reason = reason
            case .neverSent(let milliseconds):
                result.status = .queueBlocked
                result.reason =
                    "a frame waited \(milliseconds / 1000) s in OpenZWave's send queue and was never sent; "
                    + "nothing was counted for it"
                result.queueWaits.append(milliseconds)
            case .acknowledged(let milliseconds, let queued):
                rtt = milliseconds
                waited = queued
                result.roundTrips.append(milliseconds)
                result.queueWaits.append(queued)
            case .failed(let queued):
                waited = queued
                result.queueWaits.append(queued)
            }
            if result.status != .tested { break }
            result.sent += 1
            progress.emit(
                .healthCheck(
                    .frame(HealthFrame(node: number, frame: frame, of: frames, roundTrip: rtt, queued: waited))))
        }
        return result
    }

    /// How one NoOperation frame ended.
    enum PingOutcome {
        /// The node acknowledged it after `rtt` milliseconds (OpenZWave's measure, sent to acknowledged); it waited
        /// `queued` milliseconds in OpenZWave's send queue before it left.
        case acknowledged(rtt: Int, queued: Int)
        /// It left after `queued` milliseconds and was not acknowledged (the stick reported a transmit failure), or
        /// had no end within `noOperationTimeout` of leaving.
        case failed(queued: Int)
        /// It waited `noOperationQueueLimit` (milliseconds) in OpenZWave's send queue and never left.
        case neverSent(queued: Int)
        /// The library did not take it.
        case unsent(String)
    }

    /// Sends one NoOperation frame to `node` and waits for its end; the node's statistics tell when it left for
    /// the stick (the library counts a frame as it writes it) and whether it was acknowledged. The time a frame
    /// waits behind other nodes' traffic in the library's queue is the queue's, not the node's: the frame's time
    /// limit starts when it leaves.
    func ping(_ node: NodeID) async -> PingOutcome {
        let key = Self.noOperationKey(node)
        let generation = reports.generation(of: key)
        let before: ZWaveNodeStatistics
        do {
            before = try await driver.nodeStatistics(node)
            try await driver.testNode(node, count: 1)
        } catch {
            return .unsent("\(error)")
        }
        let queuedAt = ContinuousClock.now
        var leftAt: ContinuousClock.Instant?
        while leftAt == nil {
            let now = ContinuousClock.now
            if reports.generation(of: key) > generation { break }  // it ended before a look at the counter
            if let current = try? await driver.nodeStatistics(node), current.sent > before.sent {
                leftAt = now
                break
            }
            if now - queuedAt >= Self.noOperationQueueLimit {
                return .neverSent(queued: Self.milliseconds(now - queuedAt))
            }
            if (try? await Task.sleep(for: .milliseconds(20))) == nil { return .failed(queued: 0) }
        }
        let departure = leftAt ?? ContinuousClock.now
        let queued = Self.milliseconds(departure - queuedAt)
        let remaining = Self.noOperationTimeout - (ContinuousClock.now - departure)
        let ended = await reports.wait(for: key, after: generation, timeout: max(remaining, .zero))
        guard ended, let after = try? await driver.nodeStatistics(node), after.sentFailed == before.sentFailed else {
            return .failed(queued: queued)
        }
        return .acknowledged(rtt: after.lastRequestRTT, queued: queued)
    }

    nonisolated static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds) * 1000 + Int(duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
