import BridgeCore
import HummingbirdWSTesting
import Testing

@testable import WebDashboard

extension DashboardServerTests {
    /// hummingbird-websocket keeps the handler with a copy of the request context in a box the context holds; the
    /// dashboard empties it once the upgrade has taken the handler, so a closed connection's context is freed (it
    /// was kept for the life of the process: LeakSanitizer, daemon suites).
    @Test func aClosedConnectionsContextIsFreed() async throws {
        try await withServer { fixture, client in
            for _ in 0..<3 {
                try await client.ws("/ws") { inbound, _, _ in
                    var messages = Messages(inbound)
                    let snapshot = try await messages.next()
                    #expect(snapshot["type"] == "snapshot")
                    #expect(fixture.server.webSocketContexts.count >= 1, "the open connection's context is not tracked")
                }
            }
            let deadline = ContinuousClock.now + .seconds(30)
            while fixture.server.webSocketContexts.count > 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(fixture.server.webSocketContexts.count == 0, "closed connections' contexts are still in memory")
        }
    }
}
