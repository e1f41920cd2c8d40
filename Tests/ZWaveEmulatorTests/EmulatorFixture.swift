import Foundation
import ZWaveEmulator

/// An emulator on a temporary link plus a host port opened on it.
final class EmulatorFixture {
    let directory: ScratchDirectory
    let emulator: ZWaveStickEmulator
    let host: HostPort
    let link: String

    init(network: NetworkDescription = .defaultNetwork, latency: Duration = .milliseconds(5)) throws {
        directory = try ScratchDirectory()
        link = directory.path + "/zwave"
        emulator = ZWaveStickEmulator(network: network, radioLatency: latency)
        try emulator.start(link: link)
        host = try HostPort(path: link)
    }

    deinit { emulator.stop() }
}
