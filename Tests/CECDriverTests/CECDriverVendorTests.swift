import BridgeCore
import CECEmulator
import Foundation
import Testing

@testable import CECDriver

extension CECDriverTests {
    /// libcec picks vendor handlers from the TV's vendor id (Philips PH, Samsung AN, LG SL); cec-client was
    /// seen crashing on exit with Philips. The driver must work and close cleanly with each.
    @Test(
        "vendor-specific TVs: open, power on, switch input, close",
        arguments: [
            CECEmulatorConfiguration.philipsVendorID, CECEmulatorConfiguration.samsungVendorID,
            CECEmulatorConfiguration.lgVendorID,
        ])
    func vendor(_ vendor: UInt32) async throws {
        let h = try CECDriverHarness.make { $0.tvVendorID = vendor }
        try await h.run {
            try await h.driver.open()
            // libcec asked the TV for its vendor id while opening.
            #expect(h.emulator.transmittedFrames.contains { $0.frame.description == "f0:8c" })
            try await h.driver.powerOn(.tv)
            #expect(h.emulator.state.tvPoweredOn)
            #expect(try await h.driver.powerStatus(.tv) == .on)
            try await h.backend().switchInput(to: PhysicalAddress(rawValue: 0x2000))
            #expect(h.emulator.state.tvInput == 0x2000)
        }
    }
}
