import BridgeCore
import CECEmulator
import Foundation
import IntegrationSupport
import LabSupport
import Logging
import TestSupport
import Testing

@testable import CECDriver

/// Two guards against libcec's habit of taking a received frame start whose header byte equals a pending
/// adapter command's code (0x01: the TV talking to Recorder 1, while a ping is pending) for that command's
/// reply: the TV's answer then vanishes.
extension CECDriverTests {
    @Test("a power status answer that never comes is asked for again while the answer is still awaited")
    func lostPowerAnswerIsAskedAgain() async throws {
        let h = try CECDriverHarness.make()
        try await h.run {
            try await h.driver.open()
            // The TV wakes by its own remote (no broadcast), and its next answer is lost.
            h.emulator.tvRemotePower(on: true)
            h.emulator.dropTVPowerAnswers(1)
            let mark = h.emulator.transmittedCount
            let driver = h.driver
            // The reply timeout is ten minutes away: only a repeat sent while the answer is still awaited, not one
            // after giving up, can reach the bus within the waits below.
            let asking = Task {
                try await driver.powerStatus(.tv, replyTimeout: .seconds(600), retryAfter: .milliseconds(200))
            }
            let question = await h.emulator.waitForTransmitted(since: mark, timeout: .seconds(30)) {
                $0.description == "10:8f"
            }
            let repeated = await h.emulator.waitForTransmitted(
                since: (question?.index ?? mark) + 1, timeout: .seconds(60)
            ) { $0.description == "10:8f" }
            #expect(question != nil && repeated != nil, "the question was not asked again while awaiting its answer")
            if repeated == nil { asking.cancel() }
            let status = try await asking.value
            #expect(status == .on)
            let asks = h.emulator.transmittedFrames.dropFirst(mark).filter { $0.frame.description == "10:8f" }
            #expect(asks.count == 2, "expected the question and one repeat, got \(asks.map(\.frame.description))")
        }
    }

    @Test("the health ping waits while the adapter shows signs of life, and resumes when it is quiet")
    func healthPingOnlyWhenQuiet() async throws {
        let h = try CECDriverHarness.make(driverConfiguration: {
            $0.pingInterval = .milliseconds(400)
            $0.maximumPingFailures = 2
        })
        try await h.run {
            try await h.withRunningDriver {
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
                #expect(try await h.waitForPings(h.emulator.hostMessageCount(.ping) + 2))
                #expect(await h.driver.isConnected)
            }
        }
    }
}

/// An adapter that stays plugged in but stops answering: its port stays and libcec's reads do not fail, so only a
/// ping finds out.
extension CECDriverTests {
    @Test("an adapter that stays plugged in but stops answering is lost; once it answers again the driver reconnects")
    func hungAdapterIsLost() async throws {
        let h = try CECDriverHarness.make()
        try await h.run {
            try await h.withRunningDriver {
                let mark = h.recorder.count
                h.emulator.setAnswering(false)
                let reason = await h.recorder.wait(since: mark, timeout: .seconds(30)) {
                    if case .disconnected(let reason, _) = $0 { reason } else { nil }
                }
                let lost = h.recorder.all.dropFirst(mark).contains {
                    if case .connectionLost = $0 { true } else { false }
                }
                #expect(lost, "no connectionLost before \(reason ?? "the timeout")")
                #expect(reason?.contains("does not exist") == false, "\(reason ?? "no disconnected event")")
                #expect(FileManager.default.fileExists(atPath: h.link), "the hung adapter's link must stay")

                let again = h.recorder.count
                h.emulator.setAnswering(true)
                let connected = await h.recorder.wait(since: again, timeout: .seconds(30)) {
                    if case .connected = $0 { true } else { nil }
                }
                #expect(connected == true)
                try await h.driver.powerOn(.tv)
                #expect(h.emulator.state.tvPoweredOn)
            }
        }
    }
}

/// Quiet when idle: the driver's health watch and the backend's TV poll loop wait for what is due instead of
/// checking on a short period.
extension CECDriverTests {
    @Test("at rest the health watch sleeps until a ping is due: the driver's queue runs nothing")
    func healthWatchSleepsAtRest() async throws {
        let h = try CECDriverHarness.make(driverConfiguration: { $0.pingInterval = .seconds(30) })
        try await h.run {
            try await h.withRunningDriver {
                // Past the open's last calls on the queue.
                _ = await h.driver.isConnected
                let before = h.driver.executorJobs
                // The window observed (not a synchronisation): no ping is due in it, nothing is asked. A watch on
                // a 200 ms period runs five times in it.
                try await Task.sleep(for: .seconds(1))
                let woken = h.driver.executorJobs - before
                #expect(woken <= 1, "the driver's queue ran \(woken) jobs in a second at rest")
                #expect(await h.driver.isConnected)
            }
        }
    }

    @Test("the TV poll loop sleeps until the next poll is due")
    func pollLoopSleepsUntilDue() async throws {
        let h = try CECDriverHarness.make(driverConfiguration: { $0.pingInterval = .seconds(30) })
        var logger = Logger(label: "cec-test")
        logger.logLevel = .warning
        let backend = CECBackend(
            driver: h.driver, devices: [], rxEvents: false, logger: logger, fastPoll: .seconds(30),
            slowPoll: .seconds(30), fastPeriod: .seconds(60))
        // The backend is the consumer of the driver's events here (not the harness's recorder).
        defer { h.emulator.stop() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await h.driver.run() }
            group.addTask { await backend.run() }
            // The connection reached the backend: its poll loop has run for it.
            try await MQTTTestClient.poll(timeout: .seconds(10), "the connection to reach the poll loop") {
                let connected = await backend.connected
                let passes = await backend.pollLoopPasses
                return connected && passes >= 2
            }
            let before = await backend.pollLoopPasses
            // The window observed (not a synchronisation): the next poll is 30 s away. A loop on a 250 ms period
            // runs four times in it.
            try await Task.sleep(for: .seconds(1))
            let passes = await backend.pollLoopPasses - before
            #expect(passes <= 1, "the poll loop ran \(passes) times in a second with no poll due")
            group.cancelAll()
        }
        await h.driver.close()
    }
}
