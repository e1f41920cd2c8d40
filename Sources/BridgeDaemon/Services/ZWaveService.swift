import Logging
import ServiceLifecycle
import ZWaveDriver

/// Runs OpenZWave (the driver's supervision: watchdog, restarts) and the mapping of its events. On
/// graceful shutdown (after the bridge stopped) the controller first leaves inclusion or exclusion mode
/// (`ZWaveBackend.leaveControllerMode`: the cancel is confirmed by the stick, at most 5 s), then the driver
/// writes the network cache, removes the driver and destroys the Manager.
struct ZWaveService: Service {
    let driver: OpenZWave
    let backend: ZWaveBackend

    func run() async throws {
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await backend.run() }
            group.addTask {
                try await withThrowingTaskGroup(of: Void.self) { driverGroup in
                    driverGroup.addTask { try await driver.run() }
                    driverGroup.addTask {
                        // Until SIGTERM/SIGINT; cancelled instead (the group failed): straight to the teardown.
                        guard (try? await gracefulShutdown()) != nil else { return }
                        await backend.leaveControllerMode()
                    }
                    // The first to end: the shutdown's preparation (then the driver is stopped), or the driver
                    // (a start failure, thrown).
                    try await driverGroup.next()
                    driverGroup.cancelAll()
                    try await driverGroup.waitForAll()
                }
            }
        }
    }
}
