import Foundation
internal import ZWaveEmulator

/// Scenario 2: the FGD212 sends a Switch Multilevel Report (`26 03 <level>`) on the pty → the watcher has
/// the new state; interleaved with broker round trips (baseline).
enum ReportToMQTTScenario {
    struct Outcome: Sendable {
        var bridge: [Double] = []
        var baseline: [Double] = []
        /// Reports injected, warm-up included.
        var sent = 0
        /// Reports whose level was never published as the state (within 5 s).
        var lost = 0
    }

    static func run(_ session: DimmerSession, samples: Int, log: (String) -> Void) async throws -> Outcome {
        var outcome = Outcome()
        var bridge: [Double] = []
        var baseline: [Double] = []
        var previous: UInt8 = 0
        for index in 0..<(samples + 20) {
            if let roundTrip = try await session.brokerRoundTrip(100_000 + index), index >= 20 {
                baseline.append(roundTrip)
            }
            var level = DimmerSession.level(index * 7)
            if level == previous { level = level % 99 + 1 }
            previous = level
            let mark = session.watcher.inbox.mark
            let start = ContinuousClock.now
            session.fixture.stick.injectReport(from: DimmerSession.node, [0x26, 0x03, level])
            outcome.sent += 1
            guard
                let got = await session.watcher.wait(
                    topic: DimmerSession.stateTopic, text: String(level), from: mark,
                    timeout: .seconds(5))
            else {
                outcome.lost += 1
                continue
            }
            if index >= 20 { bridge.append((got.time - start).milliseconds) }
            if index > 0, index % 250 == 0 { log("    \(index) samples") }
        }
        outcome.bridge = bridge
        outcome.baseline = baseline
        return outcome
    }
}
