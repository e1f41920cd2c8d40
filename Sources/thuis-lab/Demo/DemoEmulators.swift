import CECEmulator
import FoundationEssentials
internal import SystemSupport
import ZWaveEmulator

/// The emulated hardware of the example house, on private ptys linked in the demo's directory: a Z-Wave
/// stick with the `house` network (nodes 2-9 as in the repository's devices.toml, and node 10 waiting to
/// join) and a roller shutter, a radiator thermostat and a door lock (nodes 11-13, ``extraNodes``), and a
/// Pulse-Eight CEC adapter on a bus with the TV, the Apple TV at 1.0.0.0 and the AVR.
final class DemoEmulators: Sendable {
    let network: NetworkDescription
    let zwave: ZWaveStickEmulator
    let cec: CECAdapterEmulator
    /// Where the bridge finds the stick and the adapter (`zwave.port`, `cec.port`).
    let zwaveLink: String
    let cecLink: String

    init(directory: String) throws(DemoError) {
        var network = NetworkDescription.house
        network.nodes += Self.extraNodes
        self.network = network
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

    /// The kinds beyond lights and sockets that need no wake-up to be interviewed (they listen, or are FLiRS): a
    /// cover, a thermostat and a lock, as in the repository's devices.toml. The sleeping sensors and the WallMote
    /// are in `thuis-lab emulate zwave --network sensors`.
    static let extraNodes = [
        NodeDescription(id: 11, kind: .fgr223, name: "living room shutter", level: 99, loads: [120]),
        NodeDescription(id: 12, kind: .spirit, name: "bedroom radiator", temperature: 19.5, setpoint: 20, battery: 70),
        NodeDescription(id: 13, kind: .danalock, name: "entrance lock", battery: 80),
    ]

    /// Closes both ptys and removes the links. Idempotent.
    func stop() {
        cec.stop()
        zwave.stop()
    }
}
