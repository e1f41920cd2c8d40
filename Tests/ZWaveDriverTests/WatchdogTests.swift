import Foundation
import Logging
import Testing
import ZWaveDriver

extension OpenZWaveSuite {
    /// The watchdog: OpenZWave waits forever on a silent stick; the driver must not.
    @Suite struct WatchdogTests {
        @Test("silent stick: adapterLost after the ready timeout, the driver is re-added, recovery on answer")
        func lostAndRecovered() async throws {
            let context = try ZWaveTestContext(readyTimeout: .milliseconds(1500), restartBackoff: .milliseconds(500))
            defer { context.close() }
            let stick = MiniStick(pty: try #require(context.pty), answering: false)
            let started = ContinuousClock.now
            try await context.withRunningDriver {

                let lost = await context.events.wait(timeout: .seconds(15)) { $0.contains { $0.isAdapterLost } }
                #expect(lost, "no adapterLost; events: \(context.events.all)")
                let lostAfter = ContinuousClock.now - started
                #expect(lostAfter >= .milliseconds(1400), "adapterLost came before the ready timeout: \(lostAfter)")
                let reason = context.events.all.lazy.compactMap { if case .adapterLost(let r) = $0 { r } else { nil } }
                    .first
                #expect(reason?.contains("DriverReady") == true, "adapterLost reason: \(reason ?? "none")")

                // Re-added: OpenZWave opens the port again and sends GET_VERSION a second time.
                let retried = await stick.received.wait(timeout: .seconds(15)) {
                    $0.occurrences(of: getVersionFrame) >= 2
                }
                #expect(retried, "the driver was not re-added")
                // Still silent: a second timeout does not report the outage twice.
                #expect(context.events.all.filter { $0.isAdapterLost }.count == 1)

                stick.setAnswering(true)
                let recovered = await context.events.wait(timeout: .seconds(30)) {
                    $0.contains { $0.isAdapterRecovered }
                }
                #expect(recovered, "no adapterRecovered; events: \(context.events.all)")
                let all = context.events.all
                let readyIndex = try #require(all.firstIndex { $0.isDriverReady })
                let recoveredIndex = try #require(all.firstIndex { $0.isAdapterRecovered })
                #expect(readyIndex < recoveredIndex)
                #expect(await context.driver.homeID == HomeID(0xC0FF_EE01))
                #expect(await context.driver.isReady)

            }
        }

        @Test("DriverFailed (unsupported controller) restarts at once, not after the ready timeout; log level honoured")
        func driverFailedRestarts() async throws {
            let context = try ZWaveTestContext(
                readyTimeout: .seconds(30), restartBackoff: .milliseconds(300),
                openZWaveLogLevel: .warning)
            defer { context.close() }
            let stick = MiniStick(pty: try #require(context.pty), answering: true)
            stick.setLibraryType(7)  // a bridge controller: OpenZWave raises DriverFailed
            try await context.withRunningDriver {
                let lost = await context.events.wait(timeout: .seconds(15)) { $0.contains { $0.isAdapterLost } }
                #expect(lost, "no adapterLost; events: \(context.events.all)")
                // DriverFailed, not the 30 s ready timeout (which the 15 s wait above cannot reach).
                #expect(context.events.all.contains(.driverFailed))
                let reason = context.events.all.lazy.compactMap { if case .adapterLost(let r) = $0 { r } else { nil } }
                    .first
                #expect(reason?.contains("failed") == true, "adapterLost reason: \(reason ?? "none")")
                stick.setLibraryType(1)
                let recovered = await context.events.wait(timeout: .seconds(20)) {
                    $0.contains { $0.isAdapterRecovered }
                }
                #expect(recovered, "no adapterRecovered; events: \(context.events.all)")
            }
            let ozw = context.logLines.all.filter { $0.source == "OpenZWave" }
            #expect(ozw.contains { $0.message.contains("not a Supported Library Type") }, "fatal line missing")
            #expect(
                !ozw.contains { $0.level == .info || $0.level == .debug || $0.level == .trace },
                "OpenZWave lines below warning were forwarded")
        }
    }
}
