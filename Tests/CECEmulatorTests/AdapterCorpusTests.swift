import TestSupport
import Testing

@testable import CECEmulator

/// The `cec-adapter` fuzzer's committed inputs (seeds and crashers): host byte streams to the Pulse-Eight adapter. The
/// decoder gives the same messages fed at once or byte by byte, and the adapter answers each message.
@Suite struct AdapterCorpusTests {
    @Test func everyStreamDecodesAlikeAndIsAnswered() throws {
        let corpus = try FuzzCorpus.load("cec-adapter")
        #expect(corpus.count >= 10)
        var answered = 0
        for input in corpus {
            var whole = AdapterFrameDecoder()
            let messages = whole.feed(input)
            var byByte = AdapterFrameDecoder()
            #expect(input.flatMap { byByte.feed([$0]) } == messages, "\(input)")
            var adapter = CECAdapterEmulator.Adapter(configuration: CECEmulatorConfiguration(), tracing: true)
            var lines: [String] = []
            var resumes: [CECAdapterEmulator.Resume] = []
            for message in messages where !adapter.handle(message, lines: &lines, resumes: &resumes).isEmpty {
                answered += 1
            }
        }
        #expect(answered >= 10)
    }
}
