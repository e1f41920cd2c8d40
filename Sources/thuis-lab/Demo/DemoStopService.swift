import FoundationEssentials
internal import Glibc
import ServiceLifecycle

/// Ends the demo: returns on the first SIGINT/SIGTERM or when `--exit-after` has passed. It runs with
/// `successTerminationBehavior: .gracefullyShutdownGroup`, so its return stops the other services in
/// reverse order: the house, the bridge (which publishes `offline`), the feed, the broker, the emulators.
struct DemoStopService: Service {
    let signals: DemoSignals
    let exitAfter: Duration?
    let console: DemoConsole

    func run() async throws {
        let signals = signals
        let exitAfter = exitAfter
        let reason: (signal: Int32?, text: String)? = await withTaskGroup(of: (signal: Int32?, text: String)?.self) {
            group in
            group.addTask {
                for await number in signals.received { return (number, "received \(DemoSignals.name(number))") }
                return nil
            }
            if let exitAfter {
                group.addTask {
                    do {
                        try await Task.sleep(for: exitAfter)
                        return (nil, "--exit-after \(exitAfter.components.seconds) s reached")
                    } catch {
                        return nil
                    }
                }
            }
            group.addTask {
                try? await gracefulShutdown()
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if let reason {
            // On a terminal, Ctrl-C echoes "^C": start the line over it.
            if reason.signal == SIGINT { console.returnToLineStart() }
            console.line(
                .demo,
                "\(reason.text): stopping the bridge (it marks everything offline), then the broker and the emulators")
        }
    }
}

/// Holds a resource that was started before the service group (a broker, the emulators) and releases it
/// on graceful shutdown or cancellation. Placed before the bridge's services, it stops after them.
struct DemoCleanupService: Service {
    let release: @Sendable () async -> Void

    func run() async throws {
        try? await gracefulShutdown()
        await release()
    }
}
