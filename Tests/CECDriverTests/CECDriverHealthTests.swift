import BridgeCore
import CECDriver
import CECEmulator
import Foundation
import IntegrationSupport
import TestSupport
import Testing

/// Two guards against libcec's habit of taking a received frame start whose header byte equals a pending
/// adapter command's code (0x01: the TV talking to Recorder 1, while a ping is pending) for that command's
/// reply: the TV's answer then vanishes.
extension CECDriverTests {
    @Test("a power status answer that never comes is asked for again before the reply timeout")
    func lostPowerAnswerIsAskedAgain() async throws {
        let h = try CECDriverHarness.make()
        try await h.run {
            try await h.driver.open()
            // The TV wakes by its own remote (no broadcast), and its next answer is lost.
            h.emulator.tvRemotePower(on: true)
            h.emulator.dropTVPowerAnswers(1)
            let mark = h.emulator.transmittedCount
            let status = try await h.driver.powerStatus(.tv, replyTimeout: .seconds(6), retryAfter: .milliseconds(200))
            #expect(status == .on)
            let asks = h.emulator.transmittedFrames.dropFirst(mark).filter { $0.frame.description == "10:8f" }
            #expect(asks.count == 2, "expected the question and one repeat, got \(asks.map(\.frame.description))")
            if asks.count >= 2 {
                // The repeat goes out while the answer is still being waited for, not after giving up.
                #expect(asks[1].time - asks[0].time < .seconds(6))
            }
        }
    }

    @Test("the health ping waits while the adapter shows signs of life, and resumes when it is quiet")
    func healthPingOnlyWhenQuiet() async throws {
        let h = try CECDriverHarness.make(driverConfiguration: {
            $0.pingInterval = .milliseconds(400)
            $0.maximumPingFailures = 2
        })
        try await h.run {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await h.driver.run() }
                let connected = await h.recorder.wait(timeout: .seconds(10)) {
                    if case .connected = $0 { true } else { nil }
                }
                try #require(connected == true)

                // Busy: a transmission the adapter acknowledges every 100 ms, for six ping intervals.
                let before = h.emulator.hostMessageCount(.ping)
                for _ in 0..<24 {
                    try await h.driver.requestAudioStatus()
                    try await Task.sleep(for: .milliseconds(100))
                }
                let busyPings = h.emulator.hostMessageCount(.ping) - before
                // libcec's own ping thread pings every 15 s, so one of its pings may fall in this window, and on
                // a loaded machine one slow transmission may leave a 400 ms gap; a driver that pings regardless
                // of traffic sends about six.
                #expect(busyPings <= 2, "\(busyPings) pings while the adapter was busy")

                // Quiet: the driver pings again.
                let quiet = h.emulator.hostMessageCount(.ping)
                let deadline = ContinuousClock.now + .seconds(10)
                while h.emulator.hostMessageCount(.ping) < quiet + 2, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                }
                #expect(h.emulator.hostMessageCount(.ping) >= quiet + 2)
                #expect(await h.driver.isConnected)
                group.cancelAll()
            }
        }
    }
}
