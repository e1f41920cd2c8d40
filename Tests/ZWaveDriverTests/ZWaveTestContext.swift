import Foundation
import Logging
import SerialPTY
import TestSupport
import Testing
import ZWaveDriver

/// One test's world: a temporary state dir, a pty linked as the stick's port, a driver on it whose
/// events are recorded, and captured log lines. `close()` removes everything.
final class ZWaveTestContext: @unchecked Sendable {
    // @unchecked Sendable: all stored properties are immutable and Sendable except the pty (thread-safe).
    let directory: URL
    /// The pty at `portPath` for a hand-made stick (`MiniStick`); nil when an emulator owns the port.
    let pty: PseudoTerminal?
    let configuration: ZWaveDriverConfiguration
    let logger: Logger
    let driver: OpenZWave
    let events = Recorder<ZWaveEvent>()
    let logLines = Recorder<CapturingLogHandler.Line>()
    let portPath: String

    init(
        readyTimeout: Duration = .seconds(60), restartBackoff: Duration = .seconds(1),
        logLevel: Logger.Level = .info, openZWaveLogLevel: ZWaveLogLevel? = nil, makePTY: Bool = true,
        cacheWriteDeferralLimit: Duration? = nil, patchesWrittenFor: String? = nil
    ) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("zwd-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        portPath = directory.appendingPathComponent("zwave").path
        pty = makePTY ? try PseudoTerminal(link: portPath) : nil
        let lines = logLines
        var logger = Logger(label: "test.zwave") { _ in CapturingLogHandler(lines: lines, level: logLevel) }
        logger.logLevel = logLevel
        var configuration = ZWaveDriverConfiguration(
            port: portPath, userPath: directory.appendingPathComponent("state").path,
            openZWaveLogLevel: openZWaveLogLevel,
            readyTimeout: readyTimeout, restartBackoff: restartBackoff, maxRestartBackoff: .seconds(4))
        if let cacheWriteDeferralLimit { configuration.cacheWriteDeferralLimit = cacheWriteDeferralLimit }
        if let patchesWrittenFor { configuration.patchesWrittenFor = patchesWrittenFor }
        self.configuration = configuration
        self.logger = logger
        driver = OpenZWave(configuration: configuration, logger: logger)
    }

    var statePath: String { directory.appendingPathComponent("state").path }

    /// A new driver on the same port and state dir (a restart: `run()` works once per driver).
    func makeDriver() -> OpenZWave { OpenZWave(configuration: configuration, logger: logger) }

    /// Runs the driver and records its events while `body` runs, then stops it (see `whileRunning`). Returns how
    /// long stopping took.
    @discardableResult
    func withRunningDriver(_ body: () async throws -> Void) async throws -> Duration {
        try await withRunningDriver(driver, recording: events, body)
    }

    /// The same for another driver (see `makeDriver`), recording into `recording`.
    @discardableResult
    func withRunningDriver(
        _ driver: OpenZWave, recording events: Recorder<ZWaveEvent>,
        _ body: () async throws -> Void
    ) async throws -> Duration {
        try await whileRunning(driver, recording: { events.append($0) }, body)
    }

    /// Expects `adapterRecovered` within `timeout` of now (the stick was just plugged in, `what`), noting how long
    /// it took.
    func expectRecovery(after what: String, timeout: Duration = .seconds(30)) async {
        let since = ContinuousClock.now
        let recovered = await events.wait(timeout: timeout) { $0.contains { $0.isAdapterRecovered } }
        #expect(recovered, "no adapterRecovered after \(what); events: \(events.all.suffix(10))")
        note("emulator: \(what) -> adapterRecovered \(ContinuousClock.now - since)")
    }

    /// Prints a measurement when `ZWD_DEBUG` is set (for the closing notes; tests never depend on it).
    func note(_ text: String) {
        if ProcessInfo.processInfo.environment["ZWD_DEBUG"] != nil { print("MEASURE \(text)") }
    }

    func close() {
        if ProcessInfo.processInfo.environment["ZWD_DEBUG"] != nil {
            if ProcessInfo.processInfo.environment["ZWD_DEBUG"] == "2" {
                for line in logLines.all { print("[\(line.level)] \(line.source): \(line.message)") }
            }
        }
        pty?.close()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `driver`, passing its events to `record`, while `body` runs; then cancels `run()` and waits for the
/// teardown and the end of the event stream. Returns how long stopping took (noted, never judged). A driver that has
/// not stopped 60 s after its cancellation fails the test: the bound only catches a stop that never comes.
@discardableResult
func whileRunning(
    _ driver: OpenZWave, recording record: @escaping @Sendable (ZWaveEvent) -> Void, _ body: () async throws -> Void
) async throws -> Duration {
    let stopLimit = Duration.seconds(60)
    async let recording: Void = { for await event in driver.events { record(event) } }()
    let running = Task { try await driver.run() }
    do {
        try await body()
    } catch {
        running.cancel()
        _ = try? await finishing(within: stopLimit) { try await running.value }
        throw error
    }
    let started = ContinuousClock.now
    running.cancel()
    guard try await finishing(within: stopLimit, { try await running.value }) != nil else {
        throw TestSupportError("the driver had not stopped \(stopLimit) after run() was cancelled")
    }
    let took = ContinuousClock.now - started
    await recording
    return took
}

extension ZWaveEvent {
    var isDriverReady: Bool { if case .driverReady = self { true } else { false } }
    var isAdapterLost: Bool { if case .adapterLost = self { true } else { false } }
    var isAdapterRecovered: Bool { if case .adapterRecovered = self { true } else { false } }
}

/// GET_VERSION as OpenZWave sends it.
let getVersionFrame: [UInt8] = [0x01, 0x03, 0x00, 0x15, 0xE9]
