import SystemSupport
import Testing

@testable import CECEmulator

@Suite("Pulse-Eight framing")
struct AdapterFramingTests {
    @Test("escaping round-trips every byte value")
    func escapingRoundTrip() {
        var decoder = AdapterFrameDecoder()
        for start in stride(from: 0, to: 256, by: 32) {
            let message = AdapterMessage(.getOSDName, (start..<start + 32).map { UInt8($0) })
            let wire = message.encoded
            #expect(wire.first == 0xFF && wire.last == 0xFE)
            #expect(!wire.dropFirst().dropLast().contains(0xFF))
            #expect(!wire.dropFirst().dropLast().contains(0xFE))
            #expect(decoder.feed(wire) == [message])
        }
    }

    @Test("0xFD, 0xFE, 0xFF are escaped as FD FA, FD FB, FD FC")
    func escapeBytes() {
        #expect(AdapterMessage(.frameData, [0xFF]).encoded == [0xFF, 0x06, 0xFD, 0xFC, 0xFE])
        #expect(AdapterMessage(.frameData, [0xFE]).encoded == [0xFF, 0x06, 0xFD, 0xFB, 0xFE])
        #expect(AdapterMessage(.frameData, [0xFD]).encoded == [0xFF, 0x06, 0xFD, 0xFA, 0xFE])
    }

    @Test("libcec's unescaped header/opcode bytes in TRANSMIT packets are read literally")
    func unescapedTransmitQuirk() {
        var decoder = AdapterFrameDecoder()
        // `tx 10:ff` as libcec writes it, then an escaped parameter 0xFF, then an unescaped 0xFD header.
        let messages = decoder.feed([
            0xFF, 0x0B, 0x10, 0xFE, 0xFF, 0x0C, 0xFF, 0xFE,
            0xFF, 0x0C, 0xFD, 0xFC, 0xFE, 0xFF, 0x0B, 0xFD, 0xFE, 0xFF, 0x0C, 0xFE, 0xFE,
        ])
        #expect(messages.map(\.payload) == [[0x10], [0xFF], [0xFF], [0xFD], [0xFE]])
        #expect(messages.map(\.code) == [.transmit, .transmitEOM, .transmitEOM, .transmit, .transmitEOM])
    }

    @Test("a message split across reads is reassembled")
    func splitAcrossReads() {
        var decoder = AdapterFrameDecoder()
        #expect(decoder.feed([0xFF, 0x15]).isEmpty)
        #expect(decoder.feed([0xFE]) == [AdapterMessage(.firmwareVersion)])
    }

    @Test("garbage is dropped and decoding recovers")
    func garbageRecovery() {
        var decoder = AdapterFrameDecoder()
        var generator = SeededRandom(seed: 0xCEC0_0003)
        var produced = 0
        for _ in 0..<200 {
            let junk = (0..<Int.random(in: 0...80, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            produced += decoder.feed(junk).count
        }
        // End whatever was open, then a good message must come through intact.
        _ = decoder.feed([0xFE, 0xFE])
        #expect(decoder.feed(AdapterMessage(.ping).encoded) == [AdapterMessage(.ping)])
        #expect(decoder.droppedBytes > 0)
        _ = produced
    }

    @Test("an oversized message is dropped")
    func oversized() {
        var decoder = AdapterFrameDecoder()
        let long = [0xFF, 0x26] + [UInt8](repeating: 0x41, count: 100) + [0xFE]
        #expect(decoder.feed(long).isEmpty)
        #expect(decoder.feed(AdapterMessage(.ping).encoded).count == 1)
    }
}
