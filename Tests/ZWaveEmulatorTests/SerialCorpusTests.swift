import TestSupport
import Testing
import ZWaveEmulator

/// The `zwave-serial` fuzzer's committed inputs (seeds and crashers): the first byte sets the size of the reads the
/// rest is cut into. The parser gives the same tokens however the stream is cut, and a frame it accepts re-encodes
/// to the bytes it came from.
@Suite struct SerialCorpusTests {
    @Test func tokensDoNotDependOnHowTheStreamIsCut() throws {
        let corpus = try FuzzCorpus.load("zwave-serial")
        #expect(corpus.count >= 10)
        var frames = 0
        for input in corpus {
            let chunk = Int((input.first ?? 0) % 16) + 1
            let stream = Array(input.dropFirst())
            var whole = SerialFrameParser()
            let expected = whole.feed(stream)
            var byByte = SerialFrameParser()
            var tokens: [SerialToken] = []
            var start = 0
            while start < stream.count {
                tokens += byByte.feed(stream[start..<min(start + chunk, stream.count)])
                start += chunk
            }
            #expect(tokens == expected, "cut into reads of \(chunk): \(stream)")
            for case .frame(let frame) in expected {
                #expect(stream.firstRange(of: frame.encoded) != nil, "\(frame) re-encodes to other bytes")
                frames += 1
            }
        }
        #expect(frames >= 10)
    }
}
