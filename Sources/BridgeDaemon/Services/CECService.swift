import CECDriver
import Logging
import ServiceLifecycle

/// Runs libcec (the driver's connection supervision: open, pings, reconnect with backoff) and the
/// mapping of its events. On graceful shutdown the connection is closed (`libcec_close`), waiting at most
/// `shutdownGrace`.
///
/// The driver runs in a task of its own, not a child task: a libcec call can block the driver's queue for
/// long (`libcec_open` waits ~33 s for an adapter that does not answer) and a child task would hold the
/// whole shutdown that long. After the grace period the service returns anyway and the process exits with
/// libcec's call still blocked; nothing is left to close then (the connection was never opened).
struct CECService: Service {
    let driver: LibCEC
    let backend: CECBackend
    let logger: Logger
    var shutdownGrace: Duration = .seconds(3)

    func run() async throws {
        let (stopped, stoppedContinuation) = AsyncStream.makeStream(of: Never.self)
        let driver = self.driver
        // Unstructured on purpose (see above): cancelled on shutdown, awaited through `stopped` with a deadline.
        let runner = Task {
            await driver.run()
            // `run()` closed the connection; finishing the events ends the backend's mapping.
            await driver.close()
            stoppedContinuation.finish()
        }
        await withDiscardingTaskGroup { group in
            group.addTask { await backend.run() }
            // Until SIGTERM/SIGINT (or cancellation).
            try? await gracefulShutdown()
            runner.cancel()
            let closed = await Self.first(of: { for await _ in stopped {} }, orAfter: shutdownGrace)
            if !closed {
                logger.warning(
                    "libcec did not stop within the shutdown grace period; exiting without waiting",
                    metadata: ["grace": "\(shutdownGrace)"])
            }
            group.cancelAll()
        }
    }

    /// Whether `work` finished before `timeout` (it is cancelled otherwise; it must honour cancellation).
    static func first(of work: @escaping @Sendable () async -> Void, orAfter timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await work()
                return !Task.isCancelled
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let finished = await group.next() ?? false
            group.cancelAll()
            return finished
        }
    }
}
