import Foundation
import IntegrationSupport
import LabSupport
import TestSupport
import Testing
import ZWaveEmulator

/// The suites that talk to an emulator over a pty from blocking test code run one at a time: blocking
/// reads in parallel tests would starve the threads the emulator's dispatch queue and timeouts need on a
/// 2-core machine.
@Suite(.serialized, .endToEnd) enum EmulatorSerialSuite {}

/// An emulator on a temporary link plus a host port opened on it.
final class EmulatorFixture {
    let directory: TemporaryDirectory
    let emulator: ZWaveStickEmulator
    let host: HostPort
    let link: String

    init(network: NetworkDescription = .defaultNetwork, latency: Duration = .milliseconds(5)) throws {
        directory = try TemporaryDirectory(prefix: "zwe")
        link = directory.file("zwave")
        emulator = ZWaveStickEmulator(network: network, radioLatency: latency)
        try emulator.start(link: link)
        host = try HostPort(path: link)
    }

    deinit { emulator.stop() }
}
