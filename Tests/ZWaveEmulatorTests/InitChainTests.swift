import Testing
import ZWaveEmulator

extension EmulatorSerialSuite {
    /// The init chain answers, byte-exact against the field guide (zwave-serial-api.md §2.1), as the real
    /// libopenzwave 1.6 receives them.
    @Suite struct InitChainTests {
        @Test func answersEveryInitStepByteExact() throws {
            let f = try EmulatorFixture()
            let expected: [(request: String, answer: String)] = [
                ("01 03 00 15 E9", "01 10 01 15 5A 2D 57 61 76 65 20 34 2E 30 35 00 01 97"),
                ("01 03 00 20 DC", "01 08 01 20 C0 FF EE 01 01 07"),
                ("01 03 00 05 F9", "01 04 01 05 1C E3"),
                ("01 03 00 56 AA", "01 04 01 56 01 AD"),
                // The default stick does not offer the extended transmit status report: SERIAL_API_SETUP answers 0.
                ("01 05 00 0B 02 01 F2", "01 05 01 0B 02 00 F2"),
                ("01 05 00 06 64 0F 97", "01 05 01 06 0F 0A F8"),
            ]
            for step in expected {
                f.host.write(bytes(step.request))
                #expect(f.host.next() == .ack, "no ACK for \(step.request)")
                let answer = try #require(f.host.nextFrame(), "no answer to \(step.request)")
                #expect(answer.encoded == bytes(step.answer), "answer to \(step.request)")
            }
        }

        @Test func capabilitiesAdvertiseTheGen5AndTheAnsweredFunctions() throws {
            let f = try EmulatorFixture()
            f.host.write(bytes("01 03 00 07 FB"))
            #expect(f.host.next() == .ack)
            let answer = try #require(f.host.nextFrame())
            #expect(answer.encoded.count == 45)
            #expect(Array(answer.encoded.prefix(12)) == bytes("01 2B 01 07 01 02 00 86 00 01 00 5A"))
            let mask = Array(answer.payload.dropFirst(8))
            func has(_ fn: UInt8) -> Bool { mask[Int(fn - 1) / 8] & (1 << ((fn - 1) % 8)) != 0 }
            for fn: UInt8 in [
                0x02, 0x03, 0x05, 0x06, 0x07, 0x13, 0x15, 0x1C, 0x20, 0x41, 0x4A, 0x4B, 0x56, 0x60, 0x80,
            ] {
                #expect(has(fn), "function \(fn) missing from the mask")
            }
            #expect(!has(0x52) && !has(0x54), "SUC setup is not answered, so it must not be advertised")
            #expect(!has(0x0B), "SERIAL_API_SETUP is advertised only by a stick with the transmit status report")
        }

        @Test func initDataListsTheIncludedNodesOnly() throws {
            let f = try EmulatorFixture()
            f.host.write(bytes("01 03 00 02 FE"))
            #expect(f.host.next() == .ack)
            let answer = try #require(f.host.nextFrame())
            #expect(Array(answer.encoded.prefix(7)) == bytes("01 25 01 02 05 08 1D"))
            // Nodes 1, 2, 3 (bits 0-2); the joining node 10 is not included yet.
            #expect(answer.payload[3] == 0x07)
            #expect(answer.payload[4] == 0x00)
            #expect(Array(answer.payload.suffix(2)) == [0x05, 0x00])
        }

        @Test func randomAndProtocolInfo() throws {
            let f = try EmulatorFixture()
            f.host.write(bytes("01 04 00 1C 20 C7"))
            #expect(f.host.next() == .ack)
            let random = try #require(f.host.nextFrame())
            #expect(random.encoded.count == 0x25 + 2)
            #expect(Array(random.payload.prefix(2)) == [0x01, 0x20])

            f.host.write(bytes("01 04 00 41 02 B8"))
            #expect(f.host.next() == .ack)
            let info = try #require(f.host.nextFrame())
            #expect(info == SerialFrame(.response, 0x41, bytes("D3 9C 01 04 11 01")))

            f.host.send(SerialFrame(.request, 0x41, [0x0A]))  // the joining node is not in the network
            #expect(f.host.next() == .ack)
            #expect(f.host.nextFrame()?.payload == [0, 0, 0, 0, 0, 0])
        }

        @Test func applNodeInformationIsOnlyAcked() throws {
            let f = try EmulatorFixture()
            let result = f.host.transact(SerialFrame(.request, 0x03, bytes("01 02 01 01 5E")), collect: 0.2)
            #expect(result.ack == .ack)
            #expect(result.frames.isEmpty)
        }

        @Test func requestNodeInfoAnswersWithTheFGD212NIF() throws {
            let f = try EmulatorFixture()
            let result = f.host.transact(SerialFrame(.request, 0x60, [0x02]))
            #expect(result.ack == .ack)
            #expect(
                result.frames.map(\.encoded) == [
                    bytes("01 04 01 60 01 9B"),
                    bytes(
                        "01 20 00 49 84 02 1A 04 11 01 5E 86 72 59 73 22 31 32 71 56 98 7A 20 5A 85 26 8E 60 70 75 27 EF 2B AB"
                    ),
                ])
        }
    }
}
