import Foundation
import Testing
import ZWaveEmulator

extension EmulatorSerialSuite {
    /// The extended transmit status report: offered (SERIAL_API_SETUP in the capabilities) only by a stick whose
    /// description has it, sent only after the host enabled it, and carrying the route through the routing table.
    @Suite struct TxStatusReportTests {
        static func sendData(_ node: UInt8, callback: UInt8) -> SerialFrame {
            SerialFrame(.request, 0x13, [node, 2, 0x00, 0x00, 0x25, callback])  // NoOperation
        }

        /// The SEND_DATA callback's payload after the callback id.
        static func callback(_ host: HostPort, to node: UInt8, id: UInt8) throws -> [UInt8] {
            let answer = host.transact(Self.sendData(node, callback: id), collect: 1)
            let frame = try #require(answer.frames.first { $0.kind == .request && $0.function == 0x13 })
            #expect(frame.payload.first == id)
            return Array(frame.payload.dropFirst())
        }

        /// Whether SERIAL_API_GET_CAPABILITIES lists SERIAL_API_SETUP (0x0B: bit 10 of the mask).
        static func offersSetup(_ host: HostPort) throws -> Bool {
            let answer = host.transact(SerialFrame(.request, 0x07, []))
            let frame = try #require(answer.frames.first { $0.function == 0x07 })
            #expect(frame.payload.count == 40)
            return frame.payload[8 + 1] & 0x04 != 0
        }

        static var house: NetworkDescription {
            var network = NetworkDescription.house
            network.txStatusReport = true
            return network
        }

        @Test func aStickWithoutTheReportNeitherOffersNorSendsIt() throws {
            let f = try EmulatorFixture(network: .house)
            #expect(try !Self.offersSetup(f.host))
            let answer = f.host.transact(SerialFrame(.request, 0x0B, [0x02, 0x01]))
            #expect(answer.frames.first { $0.function == 0x0B }?.payload == [0x02, 0x00])
            #expect(try Self.callback(f.host, to: 8, id: 0x21).count == 3, "status and ticks only")
        }

        @Test func onceEnabledEachCallbackCarriesTheRoute() throws {
            let f = try EmulatorFixture(network: Self.house)
            #expect(try Self.offersSetup(f.host))
            #expect(try Self.callback(f.host, to: 8, id: 0x21).count == 3, "not before the host enables it")
            let answer = f.host.transact(SerialFrame(.request, 0x0B, [0x02, 0x01]))
            #expect(answer.frames.first { $0.function == 0x0B }?.payload == [0x02, 0x01])

            // Node 8 hears only node 9, which hears the stick: one hop through 9.
            let routed = try Self.callback(f.host, to: 8, id: 0x22)
            #expect(routed.count == 20, "status, ticks and the 17 report bytes: \(routed)")
            #expect(routed.first == 0x00, "transmit complete")
            #expect(
                Array(routed.dropFirst(3)) == [
                    1, 0xCC, 0xC8, 0x7F, 0x7F, 0x7F, 0, 0, 3, 9, 0, 0, 0, 3, 1, 0, 0,
                ])
            // Node 2 hears the stick: direct, no repeater.
            let direct = try Self.callback(f.host, to: 2, id: 0x23)
            #expect(Array(direct.dropFirst(3)) == [0, 0xCC, 0x7F, 0x7F, 0x7F, 0x7F, 0, 0, 1, 0, 0, 0, 0, 3, 1, 0, 0])

            // A dead node: no ACK, and the last link of the route is the one that failed.
            f.emulator.setDead(node: 8, true)
            let failed = try Self.callback(f.host, to: 8, id: 0x24)
            #expect(failed.first == 0x01, "no ACK")
            #expect(Array(failed.suffix(2)) == [9, 8], "\(failed)")
        }
    }
}
