import Foundation
internal import MQTTDriver
import ZWaveEmulator

/// Scenario 3: 10,000 levels in one second on `/set` for one dimmer at a 30 ms radio transaction.
enum SliderFloodScenario {
    struct Outcome: Sendable {
        var published: Int
        var publishSeconds: Double
        var setFrames: Int
        var sendDataFrames: Int
        /// From the first publish to the last SEND_DATA to the node.
        var drainSeconds: Double
        var quiet: Bool
        var expectedLevel: UInt8
        var stickLevel: UInt8?
        var lastPublishedState: String?
        var rssBeforeKB: Int?
        var rssAfterKB: Int?
        var transaction: Double
        var ideal: Double { publishSeconds / transaction }
    }

    static func run(
        _ session: DimmerSession, messages: Int = 10_000, over duration: Duration = .seconds(1),
        log: (String) -> Void
    ) async throws -> Outcome {
        let transaction = ZWaveStickEmulator.realisticRadioLatency
        session.fixture.stick.setRadioLatency(transaction)
        defer { session.fixture.stick.setRadioLatency(.zero) }
        _ = await session.fixture.waitForQuiet(.milliseconds(500), timeout: .seconds(20))
        var levels = (0..<messages).map { UInt8(($0 * 37) % 99 + 1) }
        levels[messages - 1] = 42  // a distinctive last level
        let expected = levels[levels.count - 1]
        let rssBefore = session.bridge.process.rssKB
        let frameMark = session.fixture.frames.mark
        let stateMark = session.watcher.inbox.mark
        let start = ContinuousClock.now
        let interval = duration / messages
        for (index, level) in levels.enumerated() {
            let due = start + interval * index
            if due > ContinuousClock.now.advanced(by: .milliseconds(1)) {
                try await Task.sleep(until: due, clock: .continuous)
            }
            try await session.commander.publish(DimmerSession.setTopic, String(level), qos: .atMostOnce)
        }
        let published = ContinuousClock.now - start
        log("    \(messages) published in \(seconds(published.milliseconds / 1000)); waiting for the radio to go quiet")
        // Quiet = no SEND_DATA to the node for 2 s (at most 90 s).
        let deadline = ContinuousClock.now + .seconds(90)
        var quiet = false
        while ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(250))
            let last = session.fixture.frames.items(from: frameMark).last { $0.item.isSendData(to: DimmerSession.node) }
            if let last, ContinuousClock.now - last.time >= .seconds(2) {
                quiet = true
                break
            }
        }
        _ = await session.watcher.wait(
            topic: DimmerSession.stateTopic, text: String(expected), from: stateMark, timeout: .seconds(5))
        try await Task.sleep(for: .milliseconds(500))
        let frames = session.fixture.frames.items(from: frameMark).filter { $0.item.isSendData(to: DimmerSession.node) }
        let sets = frames.filter { $0.item.multilevelSetLevel(node: DimmerSession.node) != nil }
        let states = session.watcher.inbox.items(from: stateMark).filter { $0.item.topic == DimmerSession.stateTopic }
        return Outcome(
            published: messages, publishSeconds: published.milliseconds / 1000, setFrames: sets.count,
            sendDataFrames: frames.count,
            drainSeconds: ((frames.last?.time ?? start) - start).milliseconds / 1000, quiet: quiet,
            expectedLevel: expected, stickLevel: session.fixture.stick.level(node: DimmerSession.node),
            lastPublishedState: states.last?.item.text, rssBeforeKB: rssBefore,
            rssAfterKB: session.bridge.process.rssKB,
            transaction: transaction.milliseconds / 1000)
    }
}
