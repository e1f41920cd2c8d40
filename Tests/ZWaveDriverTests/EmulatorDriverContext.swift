import Foundation
import Logging
import TestSupport
import Testing
import ZWaveDriver
import ZWaveEmulator

/// One integration test's world: the emulated stick on a temporary link, an `OpenZWave` actor (the real
/// libopenzwave through the shim) on it, and the driver's events recorded. `close()` removes everything.
final class EmulatorDriverContext: @unchecked Sendable {
    // @unchecked Sendable: the stored properties are immutable; `events` is lock-protected, the emulator
    // and the driver are thread-safe.
    let directory: URL
    let link: String
    let emulator: ZWaveStickEmulator
    let events = EmulatorEventLog()

    init(network: NetworkDescription = .defaultNetwork, latency: Duration = .milliseconds(5)) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("zwemu-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        link = directory.appendingPathComponent("zwave").path
        emulator = ZWaveStickEmulator(network: network, radioLatency: latency)
        try emulator.start(link: link)
    }

    var statePath: String { directory.appendingPathComponent("state").path }

    /// A fresh driver on the emulator's link; all drivers of a context share the state (cache) directory.
    func makeDriver(retryTimeout: Duration = .seconds(10)) -> OpenZWave {
        var logger = Logger(label: "test.zwave.emulator") { _ in SwiftLogNoOpLogHandler() }
        logger.logLevel = .warning
        let configuration = ZWaveDriverConfiguration(
            port: link, userPath: statePath, retryTimeout: retryTimeout,
            readyTimeout: .seconds(10))
        return OpenZWave(configuration: configuration, logger: logger)
    }

    /// Runs `driver` (recording its events) while `body` runs, then stops it and waits for the teardown (see
    /// `whileRunning`).
    func withRunning(_ driver: OpenZWave, _ body: () async throws -> Void) async throws {
        let log = events
        try await whileRunning(driver, recording: { log.append($0) }, body)
    }

    /// Polls `condition` until it holds or `timeout` passes.
    func eventually(_ timeout: Duration, _ condition: () async -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + TestTime.scaled(timeout)
        while ContinuousClock.now < deadline {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return await condition()
    }

    func close() {
        emulator.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
