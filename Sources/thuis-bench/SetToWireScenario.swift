import Foundation

/// Scenario 1: `/set` → the Switch Multilevel Set's SEND_DATA frame at the emulated stick (radio latency 0),
/// interleaved with broker round trips (baseline).
enum SetToWireScenario {
    static func run(_ session: DimmerSession, samples: Int, log: (String) -> Void) async throws -> (
        bridge: [Double], baseline: [Double], lost: Int
    ) {
        var bridge: [Double] = []
        var baseline: [Double] = []
        var lost = 0
        bridge.reserveCapacity(samples)
        for index in 0..<(samples + 20) {  // the first 20 warm up and are dropped
            if let roundTrip = try await session.brokerRoundTrip(index), index >= 20 { baseline.append(roundTrip) }
            let level = DimmerSession.level(index)
            let frameMark = session.fixture.frames.mark
            let stateMark = session.watcher.inbox.mark
            let start = ContinuousClock.now
            try await session.commander.publish(DimmerSession.setTopic, String(level))
            let frame = await session.fixture.frames.next(from: frameMark, timeout: .seconds(5)) {
                $0.multilevelSetLevel(node: DimmerSession.node) == level
            }
            guard let frame else {
                lost += 1
                continue
            }
            if index >= 20 { bridge.append((frame.time - start).milliseconds) }
            // Let the transaction finish (the state comes back, and the verifying Get if any) before the next.
            _ = await session.watcher.wait(
                topic: DimmerSession.stateTopic, text: String(level), from: stateMark, timeout: .seconds(5))
            _ = await session.fixture.waitForQuiet(.milliseconds(3), timeout: .seconds(2))
            if index > 0, index % 250 == 0 { log("    \(index) samples") }
        }
        return (bridge, baseline, lost)
    }
}
