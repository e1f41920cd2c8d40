internal import BridgeCore
internal import FoundationEssentials

/// `health_check`: NoOperation frames to one node or each node in turn (`Manager::TestNetworkNode`, one frame at a
/// time so each frame's end and round trip are known), progress as `health_check_*` events, and per node the
/// frames sent, acknowledged and failed, the round trips and a ``HealthRating``.
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

    func healthCheck(node number: Int?, frames: Int) async throws(RequestFailure) -> JSONValue {
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
        continuation.emit(
            .healthCheck(
                HealthCheckStep(
                    "started", [("nodes", .array(nodes.map { .int(Int($0.rawValue)) })), ("frames", .int(frames))])))
        var results: [JSONValue] = []
        for node in nodes {
            if Task.isCancelled { break }
            let result = await test(node, frames: frames)
            continuation.emit(.healthCheck(HealthCheckStep("node", result.fields)))
            results.append(.object(result.fields))
        }
        continuation.emit(.healthCheck(HealthCheckStep("completed", [("nodes", .int(results.count))])))
        return .object([("frames", .int(frames)), ("nodes", .array(results))])
    }

    /// One node's health: asleep (nothing sent), or `frames` NoOperation frames one after the other.
    func test(_ node: NodeID, frames: Int) async -> HealthResult {
        let number = Int(node.rawValue)
        if Self.status(try? await driver.nodeInfo(node)) == "asleep" {
            return HealthResult(node: number, status: "asleep")
        }
        var result = HealthResult(node: number, status: "tested")
        for frame in 1...frames {
            if Task.isCancelled { break }
            var rtt: Int?
            var waited: Int?
            switch await ping(node) {
            case .unsent(let reason):
                result.status = "unreachable"
                result.reason = reason
            case .neverSent(let milliseconds):
                result.status = "queue_blocked"
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
            if result.status != "tested" { break }
            result.sent += 1
            continuation.emit(
                .healthCheck(
                    HealthCheckStep(
                        "frame",
                        [
                            ("node", .int(number)), ("frame", .int(frame)), ("of", .int(frames)),
                            ("acknowledged", .bool(rtt != nil)), ("rtt_ms", rtt.map { .int($0) } ?? .null),
                            ("queued_ms", waited.map { .int($0) } ?? .null),
                        ])))
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

    /// What `health_check` reports for one node.
    struct HealthResult {
        let node: Int
        /// `tested`, `asleep` (a sleeping battery node: nothing sent, not a failure), `unreachable` (the library
        /// refused to send) or `queue_blocked` (a frame waited `noOperationQueueLimit` in the library's queue and
        /// never left: the check of this node stopped there, with nothing counted for that frame).
        var status: String
        var reason: String?
        var sent = 0
        /// Round trips (ms) of the acknowledged frames.
        var roundTrips: [Int] = []
        /// How long (ms) each frame waited in OpenZWave's send queue before it left.
        var queueWaits: [Int] = []

        init(node: Int, status: String) {
            self.node = node
            self.status = status
        }

        var fields: [(String, JSONValue)] {
            let acknowledged = roundTrips.count
            let mean = roundTrips.isEmpty ? nil : Double(roundTrips.reduce(0, +)) / Double(acknowledged)
            var out: [(String, JSONValue)] = [
                ("node", .int(node)), ("status", .string(status)), ("sent", .int(sent)),
                ("acknowledged", .int(acknowledged)), ("failed", .int(sent - acknowledged)),
                ("rtt_min_ms", roundTrips.min().map { .int($0) } ?? .null),
                ("rtt_mean_ms", mean.map { .double(($0 * 10).rounded() / 10) } ?? .null),
                ("rtt_max_ms", roundTrips.max().map { .int($0) } ?? .null),
                (
                    "rating",
                    HealthRating.rating(sent: sent, failed: sent - acknowledged, meanRTT: mean).map { .int($0) }
                        ?? .null
                ),
            ]
            out.append(("queued_max_ms", queueWaits.max().map { .int($0) } ?? .null))
            if let reason { out.append(("reason", .string(reason))) }
            return out
        }
    }
}
