import Logging
import ServiceLifecycle
import Testing

@testable import BridgeDaemon

/// The heap trimmer must never hold up the daemon's graceful shutdown while it waits for its next trim.
@Suite struct HeapTrimServiceTests {
    @Test(.timeLimit(.minutes(1))) func aGracefulShutdownEndsItsWait() async throws {
        // An hour's wait: the group can only finish because the shutdown cancels it.
        let trim = HeapTrimService(first: .seconds(3600), interval: .seconds(3600))
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: [.init(service: trim)], logger: Logger(label: "test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

}
