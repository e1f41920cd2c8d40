import Foundation
import Logging
import TestSupport
import Testing
import ZWaveDriver

extension OpenZWaveSuite {
    /// Stopping while the stick is still starting. OpenZWave 1.6 removes a starting driver and then unhooks it
    /// from its list of starting drivers; the driver's thread, answered by the stick meanwhile, unhooks the same
    /// node (a use-after-free, found by AddressSanitizer when a bridge stopped during a slow start). The shim
    /// removes a driver only once its start has ended, or after a bound when the stick is silent
    /// (`ShimSmokeTests.silentStick`).
    @Suite struct StartingDriverRemovalTests {
        /// SERIAL_API_GET_INIT_DATA, the last request before OpenZWave declares the driver ready.
        static let getInitData: UInt8 = 0x02
        static let getInitDataFrame: [UInt8] = [0x01, 0x03, 0x00, 0x02, 0xFE]

        @Test("a stop while the stick answers the last init request waits for DriverReady, then removes the driver")
        func stopDuringTheLastInitAnswer() async throws {
            let context = try ZWaveTestContext(readyTimeout: .seconds(60), logLevel: .debug)
            defer { context.close() }
            let stick = MiniStick(pty: try #require(context.pty), answering: true)
            stick.hold(function: Self.getInitData)
            let driver = context.driver
            let events = context.events
            async let recording: Void = { for await event in driver.events { events.append(event) } }()
            let running = Task { try await driver.run() }

            let asked = await stick.received.wait(timeout: .seconds(30)) {
                $0.occurrences(of: Self.getInitDataFrame) >= 1
            }
            #expect(asked, "OpenZWave never sent GET_INIT_DATA")
            running.cancel()
            // The stop reaches the shim while the driver is still starting: the shim says it waits.
            let waiting = await context.logLines.wait(timeout: .seconds(30)) {
                $0.contains { $0.source == "OpenZWave" && $0.message.contains("is still starting: waiting") }
            }
            #expect(waiting, "the stop did not wait for the starting driver")
            // The stick answers now, during the stop: the driver becomes ready and only then is removed.
            stick.release(function: Self.getInitData)
            let stopped = try await finishing(within: .seconds(60)) { try await running.value } != nil
            #expect(stopped, "the driver had not stopped 60 s after run() was cancelled")
            await recording

            let all = events.all
            let ready = try #require(all.firstIndex { $0.isDriverReady }, "no driverReady; events: \(all)")
            let removed = try #require(all.firstIndex { $0 == .driverRemoved }, "no driverRemoved; events: \(all)")
            #expect(ready < removed, "events: \(all)")
            #expect(!context.logLines.all.contains { $0.message.contains("still starting after") })
        }
    }
}
