import CECDriver
import ServiceLifecycle

/// Runs libcec (the driver's connection supervision: open, pings, reconnect with backoff) and the
/// mapping of its events. On graceful shutdown the connection is closed.
struct CECService: Service {
    let driver: CECDriver
    let backend: CECBackend

    func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { await backend.run() }
            group.addTask {
                await cancelWhenGracefulShutdown { await driver.run() }
            }
        }
    }
}
