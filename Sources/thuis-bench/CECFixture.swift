import CECEmulator
import Foundation

/// An emulated Pulse-Eight adapter on a pty in the bench process (TV in standby, an AVR and a player).
final class CECFixture: Sendable {
    let emulator: CECAdapterEmulator
    let link: String

    init(link: String) throws {
        self.link = link
        emulator = CECAdapterEmulator(configuration: CECEmulatorConfiguration())
        try emulator.start(link: link)
    }

    /// `[cec]` on this adapter with the TV as `bench/tv`.
    var cecSection: String {
        """
        [cec]
        port = "\(link)"
        osd_name = "Thuis"
        device_type = "recording"
        [[cec.device]]
        address = 0
        room = "bench"
        name = "tv"
        """
    }

    func stop() { emulator.stop() }
}
