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
            let waker = Task {
                var wakes = 0
                for await event in frames {
                    let f = event.frame
                    let node =
                        f.function == SerialFunction.sendData || f.function == SerialFunction.requestNodeInfo
                        ? f.payload.first : nil
                    guard let node, sleeping.contains(node), emulator.isAwake(node: node) == false else { continue }
                    if emulator.execute("wake \(node)") == "ok" { wakes += 1 }
                }
                return wakes
            }
            let run = try await runner.run(device: dir.file("zwave"), in: dir.path)
            waker.cancel()
            let wakes = await waker.value
            #expect(run.finished, "interview output: \(run.output.suffix(3000))")
            #expect(run.output.split(separator: "\n").contains("AllNodesQueried"), "some nodes were not queried")
            #expect(wakes >= 3)

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
            for id: UInt8 in 2...7 {
                print(
                    "node \(id) (\(nodes[id]?.product ?? "?")): command classes \(run.commandClasses(node: id).sorted())"
                )
            }
            print(run.output.split(separator: "\n").filter { $0.hasPrefix("VALUE") }.joined(separator: "\n"))
        }
    }
}
