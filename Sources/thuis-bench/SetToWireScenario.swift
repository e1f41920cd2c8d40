import Foundation
import ZWaveEmulator

/// Scenario 1: `/set` → the Switch Multilevel Set's SEND_DATA frame at the emulated stick (radio latency 0),
/// interleaved with broker round trips (baseline).
enum SetToWireScenario {
    struct Outcome: Sendable {
        var bridge: [Double] = []
        var baseline: [Double] = []
        /// Commands published, warm-up included.
        var sent = 0
        /// Commands whose frame never reached the stick (within 5 s).
        var lost = 0
        /// Commands that reached the stick whose level was never published as the state (within 5 s).
        var statesMissing = 0
    }

    static func run(_ session: DimmerSession, samples: Int, log: (String) -> Void) async throws -> Outcome {
        var outcome = Outcome()
        var bridge: [Double] = []
        var baseline: [Double] = []
        bridge.reserveCapacity(samples)
        for index in 0..<(samples + 20) {  // the first 20 warm up and are dropped
            if let roundTrip = try await session.brokerRoundTrip(index), index >= 20 { baseline.append(roundTrip) }
            let level = DimmerSession.level(index)
            let frameMark = session.fixture.frames.mark
            let stateMark = session.watcher.inbox.mark
            let start = ContinuousClock.now
            try await session.commander.publish(DimmerSession.setTopic, String(level))
            outcome.sent += 1
            let frame = await session.fixture.frames.next(from: frameMark, timeout: .seconds(5)) {
                $0.multilevelSetLevel(node: DimmerSession.node) == level
            }
            guard let frame else {
                outcome.lost += 1
                continue
            }
            if index >= 20 { bridge.append((frame.time - start).milliseconds) }
            // Let the transaction finish (the state comes back, and the verifying Get if any) before the next.
            let state = await session.watcher.wait(
                topic: DimmerSession.stateTopic, text: String(level), from: stateMark, timeout: .seconds(5))
            if state == nil { outcome.statesMissing += 1 }
            _ = await session.fixture.waitForQuiet(.milliseconds(3), timeout: .seconds(2))
            if index > 0, index % 250 == 0 { log("    \(index) samples") }
        }
        outcome.bridge = bridge
        outcome.baseline = baseline
        return outcome
    }
}
