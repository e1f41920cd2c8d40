import Testing
import ZWaveEmulator

@Suite struct SerialFrameParserTests {
    @Test func recognisesControlBytesAndFrames() {
        var parser = SerialFrameParser()
        let tokens = parser.feed([0x06, 0x15, 0x18] + bytes("01 03 00 15 E9"))
        #expect(tokens == [.ack, .nak, .can, .frame(SerialFrame(.request, 0x15))])
    }

    @Test func skipsGarbageAroundFrames() {
        var parser = SerialFrameParser()
        let tokens = parser.feed([0xAA, 0x00, 0xFF] + bytes("01 04 00 41 02 B8") + [0x42])
        #expect(
            tokens == [
                .garbage(0xAA), .garbage(0x00), .garbage(0xFF),
                .frame(SerialFrame(.request, 0x41, [0x02])), .garbage(0x42),
            ])
    }

    @Test func reportsBadChecksumAndRecovers() {
        var parser = SerialFrameParser()
        let tokens = parser.feed(bytes("01 03 00 15 00") + bytes("01 03 00 20 DC"))
        #expect(tokens.count == 2)
        #expect(tokens.first == .badChecksum(bytes("01 03 00 15 00")))
        #expect(tokens.last == .frame(SerialFrame(.request, 0x20)))
    }

    @Test func aTooShortLengthMeansTheSOFWasGarbage() {
        var parser = SerialFrameParser()
        // SOF followed by LEN 0x01: not a frame; the next SOF starts the real one.
        let tokens = parser.feed([0x01, 0x01] + bytes("03 00 15 E9"))
        #expect(tokens.contains(.frame(SerialFrame(.request, 0x15))))
        #expect(tokens.first == .garbage(0x01))
    }

    @Test func acceptsFramesSplitAcrossReads() {
        var parser = SerialFrameParser()
        let frame = bytes("01 10 01 15 5A 2D 57 61 76 65 20 34 2E 30 35 00 01 97")
        var tokens: [SerialToken] = []
        for byte in frame { tokens += parser.feed([byte]) }
        #expect(tokens == [.frame(SerialFrame(.response, 0x15, Array("Z-Wave 4.05".utf8) + [0x00, 0x01]))])
        #expect(!parser.isInsideFrame)
    }
}
