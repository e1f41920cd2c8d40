import BridgeCore
import CECDriver
import CECEmulator
import Foundation
import IntegrationSupport
import Logging
import TestSupport

/// An emulator on a temporary link plus a driver configured for it, with its events recorded.
struct CECDriverHarness {
    let directory: TemporaryDirectory
    let link: String
    let emulator: CECEmulator
    let driver: CECDriver
    let recorder: EventRecorder

    static func make(
        configure: (inout CECEmulatorConfiguration) -> Void = { _ in },
        driverConfiguration: (inout CECDriverConfiguration) -> Void = { _ in }
    ) throws -> CECDriverHarness {
        let directory = try TemporaryDirectory(prefix: "cec-driver")
        let link = directory.file("cec")
        var configuration = CECEmulatorConfiguration()
        configure(&configuration)
        let emulator = CECEmulator(configuration: configuration)
        try emulator.start(link: link)
        var driverConfig = CECDriverConfiguration(port: link, osdName: "Thuis", deviceType: .recording)
        driverConfig.pingInterval = .milliseconds(500)
        driverConfig.maximumPingFailures = 1
        driverConfig.initialBackoff = .milliseconds(300)
        driverConfig.maximumBackoff = .seconds(1)
        driverConfiguration(&driverConfig)
        var logger = Logger(label: "cec-test")
        logger.logLevel = .warning
        let driver = CECDriver(configuration: driverConfig, logger: logger)
        return CECDriverHarness(
            directory: directory, link: link, emulator: emulator, driver: driver, recorder: EventRecorder())
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
}
