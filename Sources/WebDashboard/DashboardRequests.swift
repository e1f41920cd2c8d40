public import BridgeCore
public import ServiceLifecycle
internal import Synchronization

/// Runs the bridge requests the dashboards send, each in its own task (an `include` lasts until a device joined, and
/// the same dashboard's `cancel` must still get through), the way the bridge runs requests from MQTT. A request
/// outlives the socket that sent it, as it outlives an MQTT client that disconnects; the answer goes to every
/// dashboard (and MQTT) like any response. At most ``perClient`` requests of one dashboard run at a time.
public final class DashboardRequests: Service, Sendable {
    public static let perClient = 8

    let bridge: Bridge
    private let jobs: AsyncStream<Job>
    private let continuation: AsyncStream<Job>.Continuation
    private let running = Mutex<[Int: Int]>([:])

    struct Job: Sendable {
        let message: InboundMessage
        let client: Int
    }

    public init(bridge: Bridge) {
        self.bridge = bridge
        (jobs, continuation) = AsyncStream.makeStream(of: Job.self, bufferingPolicy: .unbounded)
    }

    /// Queues `message` (a request topic and its payload) for dashboard `client`; false when that dashboard has
    /// ``perClient`` requests running already.
    func submit(_ message: InboundMessage, from client: Int) -> Bool {
        let accepted = running.withLock { running in
            guard running[client, default: 0] < Self.perClient else { return false }
            running[client, default: 0] += 1
            return true
        }
        if accepted { continuation.yield(Job(message: message, client: client)) }
        return accepted
    }

    /// Runs the queued requests until graceful shutdown; then the running ones are cancelled (the bridge has stopped
    /// by then: an inclusion in progress ends as `bridge stopping`).
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                for await job in self.jobs {
                    group.addTask {
                        await self.bridge.receive(job.message)
                        self.running.withLock { running in
                            running[job.client, default: 1] -= 1
                            if running[job.client] == 0 { running[job.client] = nil }
                        }
                    }
                }
            }
        }
    }
}
