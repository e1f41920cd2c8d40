import Testing
import ZWaveEmulator

extension EmulatorSerialSuite {
    @Suite struct InclusionTests {
        @Test func addNodeRunsTheFullCallbackSequence() throws {
            var network = NetworkDescription.defaultNetwork
            network.nodes[2].joinAfter = nil
            let f = try EmulatorFixture(network: network)
            let start = f.host.transact(SerialFrame(.request, 0x4A, [0xC1, 0x34]), collect: 0.1)
            #expect(start.frames.map(\.encoded) == [bytes("01 07 00 4A 34 01 00 00 87")])
            #expect(f.emulator.isInclusionActive)
            #expect(f.emulator.pressNetworkButton(node: 10))
            let found = [f.host.nextFrame(), f.host.nextFrame(), f.host.nextFrame()]
            #expect(found[0]?.encoded == bytes("01 07 00 4A 34 02 00 00 84"))
            #expect(found[1]?.payload.prefix(4) == [0x34, 0x03, 0x0A, 0x0A])
            #expect(found[1]?.payload.dropFirst(4).prefix(3) == [0x04, 0x10, 0x01])
            #expect(found[2]?.payload == [0x34, 0x05, 0x0A, 0x00])
            #expect(!f.emulator.includedNodeIDs.contains(10), "included only when the host stops")
            let stop = f.host.transact(SerialFrame(.request, 0x4A, [0x05]), collect: 0.1)
            #expect(stop.frames.map(\.payload) == [[0x34, 0x06, 0x0A, 0x00]])
            #expect(f.emulator.includedNodeIDs == [2, 3, 10])
            #expect(!f.emulator.isInclusionActive)

            let remove = f.host.transact(SerialFrame(.request, 0x4B, [0x81, 0x22]), collect: 0.1)
            #expect(remove.frames.map(\.payload) == [[0x22, 0x01, 0x00, 0x00]])
            #expect(f.emulator.pressNetworkButton(node: 10))
            #expect(f.host.nextFrame()?.payload == [0x22, 0x02, 0x00, 0x00])
            #expect(f.host.nextFrame()?.payload.prefix(3) == [0x22, 0x03, 0x0A])
            #expect(f.host.nextFrame()?.payload == [0x22, 0x06, 0x0A, 0x00])
            #expect(f.emulator.includedNodeIDs == [2, 3])
        }

        @Test func theJoiningNodeJoinsByItselfAfterItsDelay() throws {
            var network = NetworkDescription.defaultNetwork
            network.nodes[2].joinAfter = 0.3
            let f = try EmulatorFixture(network: network)
            _ = f.host.transact(SerialFrame(.request, 0x4A, [0xC1, 0x40]), collect: 0.05)
            #expect(f.host.nextFrame(timeout: 2)?.payload == [0x40, 0x02, 0x00, 0x00])
        }

        @Test func cancelWithNothingJoining() throws {
            var network = NetworkDescription.defaultNetwork
            network.nodes[2].joinAfter = nil
            let f = try EmulatorFixture(network: network)
            _ = f.host.transact(SerialFrame(.request, 0x4A, [0xC1, 0x35]), collect: 0.1)
            #expect(f.emulator.isInclusionActive)
            let stop = f.host.transact(SerialFrame(.request, 0x4A, [0x05]), collect: 0.2)
            #expect(stop.frames.map(\.payload) == [[0x35, 0x06, 0x00, 0x00]])
            #expect(!f.emulator.isInclusionActive)
            #expect(f.emulator.includedNodeIDs == [2, 3])
            #expect(!f.emulator.pressNetworkButton(node: 10), "no inclusion mode any more")
        }
    }
}
