import BridgeCore
import CECDriver
import CECEmulator
import Foundation
import IntegrationSupport
import LabSupport
import Logging
import TestSupport
import Testing

/// An emulator on a temporary link plus a driver configured for it, with its events recorded.
struct CECDriverHarness {
    let directory: TemporaryDirectory
    let link: String
    let emulator: CECAdapterEmulator
    let driver: LibCEC
    let recorder: EventRecorder

    static func make(
        configure: (inout CECEmulatorConfiguration) -> Void = { _ in },
        driverConfiguration: (inout CECDriverConfiguration) -> Void = { _ in }
    ) throws -> CECDriverHarness {
        let directory = try TemporaryDirectory(prefix: "cec-driver")
        let link = directory.file("cec")
        var configuration = CECEmulatorConfiguration()
        configure(&configuration)
        let emulator = CECAdapterEmulator(configuration: configuration)
        try emulator.start(link: link)
        var driverConfig = CECDriverConfiguration(port: link, osdName: "Thuis", deviceType: .recording)
        driverConfig.pingInterval = .milliseconds(500)
        driverConfig.maximumPingFailures = 1
        driverConfig.initialBackoff = .milliseconds(300)
        driverConfig.maximumBackoff = .seconds(1)
        driverConfiguration(&driverConfig)
        var logger = Logger(label: "cec-test")
        logger.logLevel = .warning
        let driver = LibCEC(configuration: driverConfig, logger: logger)
        return CECDriverHarness(
            directory: directory, link: link, emulator: emulator, driver: driver, recorder: EventRecorder())
    }

    /// The bridge's CEC backend on this driver, not running (the recorder keeps the driver's events): for the
    /// product's own command paths.
    func backend() -> CECBackend {
        var logger = Logger(label: "cec-test-backend")
        logger.logLevel = .warning
        return CECBackend(driver: driver, devices: [], rxEvents: false, logger: logger)
    }

    /// Runs `body` while a child task records the driver's events; closes everything afterwards.
    func run(_ body: () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            let recorder = self.recorder
            let events = driver.events
            group.addTask {
                for await event in events { recorder.append(event) }
            }
            do {
                try await body()
            } catch {
                await driver.close()
                emulator.stop()
                throw error
            }
            await driver.close()
            emulator.stop()
            try await group.waitForAll()
        }
    }

    /// Runs the driver's supervising loop (`run()`), and `body` once it has connected; cancels the loop after.
    func withRunningDriver(_ body: () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await driver.run() }
            let connected = await recorder.wait(timeout: .seconds(10)) {
                if case .connected = $0 { true } else { nil }
            }
            try #require(connected == true)
            try await body()
            group.cancelAll()
        }
    }

    /// Waits until the adapter has received `count` pings in all (`hostMessageCount(.ping)`); whether it did within
    /// `timeout`.
    func waitForPings(_ count: Int, timeout: Duration = .seconds(10)) async throws -> Bool {
        let deadline = ContinuousClock.now + TestTime.scaled(timeout)
        while emulator.hostMessageCount(.ping) < count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        return emulator.hostMessageCount(.ping) >= count
    }
}
