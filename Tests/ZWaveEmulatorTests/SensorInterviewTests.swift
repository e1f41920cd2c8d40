import Foundation
import IntegrationSupport
import TestSupport
import Testing
import ZWaveEmulator

extension EmulatorSerialSuite {
    /// The real libopenzwave interviews the battery and sensor kinds to completion, finds each product in its
    /// device database and reads their values. The sleeping nodes are woken (a scripted `wake`) whenever
    /// OpenZWave tries to reach one that sleeps, as a user would press its button.
    @Suite struct SensorInterviewTests {
        @Test func openZWaveInterviewsEverySensorKind() async throws {
            let runner = try await OZWInterviewRunner.build()
            let dir = try TemporaryDirectory(prefix: "zwe")
            let emulator = ZWaveStickEmulator(network: .sensors)
            try emulator.start(link: dir.file("zwave"))
            defer { emulator.stop() }

            let sleeping: Set<UInt8> = [2, 3, 6]
            let frames = emulator.hostFrameStream()
            let waker = Task { await emulator.wake(sleeping, whenAddressedIn: frames) }
            let run = try await runner.run(device: dir.file("zwave"), in: dir.path)
            waker.cancel()
            let wakes = await waker.value
            try #require(run.finished, "interview output: \(run.output.suffix(3000))")
            #expect(run.output.split(separator: "\n").contains("AllNodesQueried"), "some nodes were not queried")
            #expect(wakes >= 3)

            // Every command OpenZWave sent was answered, but one a real FGDW002 ignores too: OpenZWave gives every
            // Z-Wave Plus notification sensor Sensor Binary (by its device type), which the FGDW002 does not have.
            let log = try String(contentsOfFile: dir.file("OZW_Log.txt"), encoding: .utf8)
            #expect(log.contains("Node003"))
            let dropped = log.split(separator: "\n").filter { $0.contains("Dropping command") }
            #expect(
                dropped.count <= 1 && dropped.allSatisfy { $0.contains("SensorBinaryCmd_Get (Node=3)") }, "\(dropped)")

            let nodes = run.nodes
            #expect(nodes[2]?.product == "ZW100 MultiSensor 6")
            #expect(nodes[3]?.product == "FGDW002 Door Opening Sensor 2")
            #expect(nodes[4]?.product == "FGR223 Roller Shutter Controller 3")
            #expect(nodes[5]?.product == "EUR_SPIRITZ Wall Radiator Thermostat")
            #expect(nodes[6]?.product == "ZW130 WallMote Quad")
            #expect(nodes[7]?.product == "Danalock V2 BTZE")
            for id in sleeping { #expect(nodes[id]?.listening == false && nodes[id]?.frequentListening == false) }
            #expect(nodes[4]?.listening == true)
            #expect(nodes[5]?.frequentListening == true)
            #expect(nodes[7]?.frequentListening == true)

            // The values OpenZWave read, as it shows them (command class, index).
            let expected: [(node: UInt8, cc: UInt8, index: Int, value: String)] = [
                (2, 0x31, 1, "21.5 C"), (2, 0x31, 5, "45 %"), (2, 0x31, 3, "120 Lux"), (2, 0x31, 27, "1 UV"),
                (2, 0x30, 0, "False"), (2, 0x80, 0, "90 %"), (2, 0x84, 0, "3600 Seconds"),
                (3, 0x31, 1, "19.0 C"), (3, 0x80, 0, "80 %"), (3, 0x84, 0, "21600 Seconds"),
                (4, 0x26, 0, "99"), (4, 0x32, 2, "0.0 W"),
                (5, 0x40, 0, "Heat"), (5, 0x43, 1, "20.0 C"), (5, 0x43, 11, "16.0 C"), (5, 0x31, 1, "19.50 C"),
                (5, 0x80, 0, "70 %"),
                (6, 0x5B, 256, "4"), (6, 0x80, 0, "60 %"),
                (7, 0x62, 0, "True"), (7, 0x63, 257, "20"), (7, 0x80, 0, "50 %"),
            ]
            for e in expected {
                #expect(
                    run.value(node: e.node, cc: e.cc, index: e.index) == e.value,
                    "node \(e.node) CC \(e.cc) #\(e.index)")
            }
            // The WallMote is a wall controller: no sensor values.
            #expect(run.commandClasses(node: 6).isDisjoint(with: [0x30, 0x31]))
        }
    }
}
