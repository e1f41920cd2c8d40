import Logging
import ServiceLifecycle
import ZWaveDriver

/// Runs OpenZWave (the driver's supervision: watchdog, restarts) and the mapping of its events. On
/// graceful shutdown the driver writes the network cache, removes the driver and destroys the Manager.
struct ZWaveService: Service {
    let driver: ZWaveDriver
    let backend: ZWaveBackend

    func run() async throws {
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await backend.run() }
            group.addTask {
                try await cancelWhenGracefulShutdown { try await driver.run() }
            }
        }
    }
}
