import BridgeCore
import TestSupport
import Testing

/// The `requests` fuzzer's committed inputs (seeds and crashers): the first byte picks the verb, the rest is the MQTT
/// payload. Each is answered with a typed request or a reason, never a crash; the seeds reach both outcomes.
@Suite struct RequestCorpusTests {
    @Test func everyInputGetsARequestOrAReason() throws {
        let corpus = try FuzzCorpus.load("requests")
        #expect(corpus.count >= 20)
        var accepted = 0
        var refused = 0
        for input in corpus {
            let verbs = BridgeRequest.Verb.allCases
            let verb = verbs[Int(input.first ?? 0) % verbs.count]
            let payload = Array(input.dropFirst())
            do {
                let arguments = try payload.isEmpty ? JSONValue.object([]) : JSONValue.parse(payload)
                _ = try BridgeRequest.parse(verb: verb, arguments: arguments)
                accepted += 1
            } catch let error as RequestFailure {
                #expect(!error.reason.isEmpty)
                refused += 1
            } catch {
                #expect(!"\(error)".isEmpty)
                refused += 1
            }
        }
        #expect(accepted >= 10)
        #expect(refused >= 3)
    }
}
