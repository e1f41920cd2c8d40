import BridgeCore
import TestSupport
import Testing
import WebDashboard

/// The `dashboard` fuzzer's committed inputs (seeds and crashers), one WebSocket text frame each: each is decoded into
/// a message or refused with a reason, never a crash; a decoded request carries a JSON object, as MQTT takes it.
@Suite struct DashboardCorpusTests {
    @Test func everyFrameIsAMessageOrAReason() throws {
        let corpus = try FuzzCorpus.load("dashboard")
        #expect(corpus.count >= 10)
        var decoded = 0
        var refused = 0
        for frame in corpus {
            do throws(DashboardProtocol.ProtocolError) {
                if case .request(_, let payload) = try DashboardProtocol.parse(frame), !payload.isEmpty {
                    guard case .object? = try? JSONValue.parse(payload) else {
                        Issue.record("a request payload that is not a JSON object: \(payload)")
                        continue
                    }
                }
                decoded += 1
            } catch {
                #expect(!error.description.isEmpty)
                refused += 1
            }
        }
        #expect(decoded >= 5)
        #expect(refused >= 3)
    }
}
