import BridgeCore
import CECDriver
import CECEmulator
import Foundation
import Logging
import TestSupport
import Testing

/// libcec 6's shutdown crash ("pure virtual method called", or SIGSEGV): `libcec_destroy` frees objects its own
/// threads still use (see `LibCECResources`). The driver therefore creates one libcec instance, opens and closes
/// it as the adapter comes and goes, and never destroys it.
extension CECDriverTests {
    @Test("one driver opens and closes the emulated adapter five times; commands work after each open")
    func reopenLoop() async throws {
        let h = try CECDriverHarness.make()
        try await h.run {
            for round in 0..<5 {
                try await h.driver.open()
                let mark = h.emulator.transmittedCount
                try await h.driver.powerOn(.tv)
                let ivo = await h.emulator.waitForTransmitted(since: mark, timeout: .seconds(5)) {
                    $0.description == "10:04"
                }
                #expect(ivo != nil, "round \(round): no Image View On after reopening")
                await h.driver.disconnect()
                #expect(!(await h.driver.isConnected))
            }
        }
    }
}

extension CECDriverTests {
    /// The crash itself: with a Philips TV, libcec replaces the command handler of its own device by its Philips
    /// handler, whose ActivateSource starts a thread that checks every 5 s whether the TV came on. Destroying the
    /// connection while that thread runs frees the handler and the bus under it (it goes on asking the TV for its
    /// power: SIGSEGV or "pure virtual method called"). The TV's Set Stream Path to the bridge's own address makes
    /// libcec activate the bridge as source while the TV is in standby, the way a user's remote would.
    @Test("Philips TV: closing libcec while its image-view-on check runs does not crash the process")
    func philipsActiveSourceCheckThenClose() async throws {
        let h = try CECDriverHarness.make {
            $0.tvVendorID = CECEmulatorConfiguration.philipsVendorID
            $0.playbackPhysicalAddress = 0x3000  // the bridge alone at its address
        } driverConfiguration: {
            $0.libcecLogLevels = .all
        }
        try await h.run {
            try await h.driver.open()
            #expect(!h.emulator.state.tvPoweredOn)
            let mark = h.emulator.transmittedCount
            // The TV sets the stream path to the adapter's physical address, 1.0.0.0.
            h.emulator.injectBusFrame(bytes: [0x0F, 0x86, 0x10, 0x00])
            // The check's first question to the TV, 5 s later: the thread runs.
            let asked = await h.emulator.waitForTransmitted(since: mark, timeout: .seconds(20)) {
                $0.description == "10:8f"
            }
            try #require(
                asked != nil,
                "libcec's Philips handler never asked the TV for its power; sent: \(h.emulator.transmittedFrames.dropFirst(mark).map(\.frame.description)); \(h.recorder.all.suffix(40))"
            )
            await h.driver.close()
        }
        // Still here: the process survived the close (before the fix it died with SIGSEGV in
        // CImageViewOnCheck::Process, called from libcec_destroy).
        #expect(!(await h.driver.isConnected))
    }
}
