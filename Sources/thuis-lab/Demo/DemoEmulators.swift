import CECEmulator
import FoundationEssentials
internal import SystemSupport
import ZWaveEmulator

/// The emulated hardware of the example house, on private ptys linked in the demo's directory: a Z-Wave
/// stick with the `house` network (nodes 2-9 as in the repository's devices.toml, and node 10 waiting to
/// join) and a Pulse-Eight CEC adapter on a bus with the TV, the Apple TV at 1.0.0.0 and the AVR.
final class DemoEmulators: Sendable {
    let network: NetworkDescription
    let zwave: ZWaveStickEmulator
    let cec: CECAdapterEmulator
    /// Where the bridge finds the stick and the adapter (`zwave.port`, `cec.port`).
    let zwaveLink: String
    let cecLink: String

    init(directory: String) throws(DemoError) {
        network = NetworkDescription.house
        zwave = ZWaveStickEmulator(network: network)
        cec = CECAdapterEmulator(configuration: CECEmulatorConfiguration())
        zwaveLink = Path.join(directory, "zwave-stick")
        cecLink = Path.join(directory, "cec-adapter")
        do {
            try zwave.start(link: zwaveLink)
        } catch {
            throw .emulator("Z-Wave", underlying: "\(error)")
        }
        do {
            try cec.start(link: cecLink)
        } catch {
            zwave.stop()
            throw .emulator("CEC", underlying: "\(error)")
        }
    }

    /// Closes both ptys and removes the links. Idempotent.
    func stop() {
        cec.stop()
        zwave.stop()
    }
}
