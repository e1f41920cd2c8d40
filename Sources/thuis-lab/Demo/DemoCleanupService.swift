import ServiceLifecycle

/// Holds a resource that was started before the service group (a broker, the emulators) and releases it
/// on graceful shutdown or cancellation. Placed before the bridge's services, it stops after them.
struct DemoCleanupService: Service {
    let release: @Sendable () -> Void

    func run() async throws {
        try? await gracefulShutdown()
        release()
    }
}
