import CECEmulator
import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing

/// HDMI-CEC on MQTT, end to end: real mosquitto, real libcec in the real bridge process, the
/// project's Pulse-Eight emulator (TV, audio system, Apple TV at 1.0.0.0) in the test process.
@Suite(.endToEnd) struct CECMappingTests {
    static let imageViewOn: UInt8 = 0x04
    static let standby: UInt8 = 0x36

    @Test func onStandbyAndToggleReachTheTVAndItsState() async throws {
        try await CECHouse.with(name: "cecpower") { house in
            try await house.waitUntilReady()
            try await house.waitFor("", "standby")

            var sent = house.emulator.transmittedCount
            var mark = await house.mark
            try await house.send("/set", "on")
            let wake = await house.emulator.waitForTransmitted(since: sent, timeout: TestTime.scaled(.seconds(10))) {
                $0.destination == 0 && $0.opcode == Self.imageViewOn
            }
            #expect(wake != nil, "no Image View On reached the TV")
            try await house.waitFor("", "on", from: mark)
            #expect(house.emulator.state.tvPoweredOn)

            sent = house.emulator.transmittedCount
            mark = await house.mark
            try await house.send("/set", "standby")
            let sleep = await house.emulator.waitForTransmitted(since: sent, timeout: TestTime.scaled(.seconds(10))) {
                $0.destination == 0 && $0.opcode == Self.standby
            }
            #expect(sleep != nil, "no Standby reached the TV")
            try await house.waitFor("", "standby", from: mark)
            #expect(!house.emulator.state.tvPoweredOn)

            // toggle resolves from the published state: standby → on → standby.
            mark = await house.mark
            try await house.send("/set", "toggle")
            try await house.waitFor("", "on", from: mark)
            #expect(house.emulator.state.tvPoweredOn)
            mark = await house.mark
            try await house.send("/set", "TOGGLE")
            try await house.waitFor("", "standby", from: mark)
            #expect(!house.emulator.state.tvPoweredOn)

            // The benchmark figure: `/set on` published → Image View On completed at the adapter.
            var latencies: [Duration] = []
            for _ in 0..<20 {
                sent = house.emulator.transmittedCount
                let published = ContinuousClock.now
                try await house.send("/set", "on")
                let frame = try #require(
                    await house.emulator.waitForTransmitted(since: sent, timeout: TestTime.scaled(.seconds(10))) {
                        $0.destination == 0 && $0.opcode == Self.imageViewOn
                    })
                latencies.append(frame.time - published)
                mark = await house.mark
                try await house.send("/set", "off")
                try await house.waitFor("", "standby", from: mark)
            }
            let sorted = latencies.sorted()
            print(
                "CEC /set on → Image View On: median \(sorted[sorted.count / 2]), min \(sorted[0]), max \(sorted[sorted.count - 1])"
            )
        }
    }

    @Test func theTVsOwnRemoteUpdatesTheStateWithoutACommand() async throws {
        try await CECHouse.with(name: "cecremote", configure: { $0.tvPoweredOn = true }) { house in
            try await house.waitUntilReady()
            try await house.waitFor("", "on")
            var mark = await house.mark
            var started = ContinuousClock.now
            house.emulator.tvRemotePower(on: false)  // broadcasts Standby
            try await house.waitFor("", "standby", from: mark, timeout: .seconds(5))
            print("CEC remote standby → state: \(ContinuousClock.now - started)")
            // Switching on by the remote sends nothing on the bus: the fast poll (2 s) notices.
            mark = await house.mark
            started = ContinuousClock.now
            house.emulator.tvRemotePower(on: true)
            try await house.waitFor("", "on", from: mark, timeout: .seconds(10))
            print("CEC remote on → state (polled): \(ContinuousClock.now - started)")
        }
    }

    @Test func volumeAndMuteReachTheAudioSystemAndFollowItsRemote() async throws {
        try await CECHouse.with(name: "cecvolume") { house in
            try await house.waitUntilReady()
            try await house.waitFor("/volume", "20")
            try await house.waitFor("/mute", "off")

            var mark = await house.mark
            try await house.send("/volume/set", "30")
            try await house.waitFor("/volume", "30", from: mark, timeout: .seconds(30))
            #expect(house.emulator.state.volume == 30)
            // Each step published is the level the audio system reported after it: climbing, never an older
            // (cached) level published again.
            let steps = await house.watcher.received[mark...].filter { $0.topic == house.topic("/volume") }
                .compactMap { Int($0.text) }
            #expect(steps == Array(21...30), "\(steps)")

            mark = await house.mark
            try await house.send("/volume/set", "up")
            try await house.waitFor("/volume", "31", from: mark)
            #expect(house.emulator.state.volume == 31)
            mark = await house.mark
            try await house.send("/volume/set", "down")
            try await house.waitFor("/volume", "30", from: mark)
            #expect(house.emulator.state.volume == 30)

            mark = await house.mark
            try await house.send("/mute/set", "toggle")
            try await house.waitFor("/mute", "on", from: mark)
            #expect(house.emulator.state.muted)
            mark = await house.mark
            try await house.send("/mute/set", "toggle")
            try await house.waitFor("/mute", "off", from: mark)
            #expect(!house.emulator.state.muted)

            // The audio system's own remote.
            mark = await house.mark
            house.emulator.avrRemoteSetVolume(45)
            try await house.waitFor("/volume", "45", from: mark, timeout: .seconds(40))
            mark = await house.mark
            house.emulator.avrRemoteMute(true)
            try await house.waitFor("/mute", "on", from: mark, timeout: .seconds(40))
            // The audio status is asked for again periodically (the AVR reports its remote's changes only to
            // whoever asked last), not just at start.
            let requests = house.emulator.transmittedFrames.filter {
                $0.frame.destination == 5 && $0.frame.opcode == 0x71
            }
            #expect(requests.count >= 2, "Give Audio Status sent \(requests.count) times")
        }
    }

    @Test func inputSetSwitchesTheTVAndItsRemoteUpdatesInput() async throws {
        try await CECHouse.with(name: "cecinput", configure: { $0.tvPoweredOn = true }) { house in
            try await house.waitUntilReady()
            var mark = await house.mark
            try await house.send("/input/set", "appletv")
            try await house.waitFor("/input", "appletv", from: mark)
            try await house.waitForEmulator("the TV shows 1.0.0.0") { $0.tvInput == 0x1000 }

            mark = await house.mark
            house.emulator.tvRemoteSelectInput(0x2000)
            try await house.waitFor("/input", "receiver", from: mark)
            mark = await house.mark
            house.emulator.tvRemoteSelectInput(0x3000)
            try await house.waitFor("/input", "3.0.0.0", from: mark)
            mark = await house.mark
            house.emulator.tvRemoteSelectInput(0x1000)  // the Apple TV answers Active Source
            try await house.waitFor("/input", "appletv", from: mark)

            mark = await house.mark
            try await house.send("/input/set", "2.0.0.0")
            try await house.waitFor("/input", "receiver", from: mark)
            try await house.waitForEmulator("the TV shows 2.0.0.0") { $0.tvInput == 0x2000 }
            // The bridge switches by Set Stream Path only; the TV stays on the requested input (libcec may
            // announce itself now and then, which must not pull the TV back to libcec's own address).
            let streamPaths = house.emulator.transmittedFrames.filter { $0.frame.opcode == 0x86 }
            #expect(streamPaths.contains { $0.frame.data == [0x86, 0x20, 0x00] }, "\(streamPaths)")
            #expect(house.emulator.state.tvInput == 0x2000)
            // Received frames are not published as events unless `cec_rx_events = true`.
            #expect(!(await house.events()).contains { $0.type == "cec_rx" })
        }
    }

    @Test func anUnpluggedAdapterGoesOfflineAndComesBackRefreshed() async throws {
        try await CECHouse.with(name: "cecunplug") { house in
            try await house.waitUntilReady()
            try await house.waitFor("", "standby")
            var mark = await house.mark
            let unplugged = ContinuousClock.now
            house.emulator.unplug()
            try await house.waitFor("/availability", "offline", from: mark, timeout: .seconds(30))
            try await house.waitForEvent("adapter_lost", from: mark, timeout: .seconds(10)) {
                $0.string("adapter") == "cec"
            }
            print("CEC unplug → offline: \(ContinuousClock.now - unplugged)")

            mark = await house.mark
            try await house.send("/set", "on")
            let rejected = try await house.waitForEvent("command_rejected", from: mark)
            #expect(rejected.string("reason", contains: "offline"), "\(rejected)")

            // While the adapter is out the TV is switched on by its remote: after the replug the state is re-read.
            house.emulator.tvRemotePower(on: true)
            mark = await house.mark
            let replugged = ContinuousClock.now
            try house.emulator.replug()
            try await house.waitFor("/availability", "online", from: mark, timeout: .seconds(60))
            try await house.waitForEvent("adapter_recovered", from: mark, timeout: .seconds(10)) {
                $0.string("adapter") == "cec"
            }
            try await house.waitFor("", "on", from: mark, timeout: .seconds(20))
            print("CEC replug → online: \(ContinuousClock.now - replugged)")
            #expect(house.bridge.isRunning)
        }
    }

    @Test func badPayloadsAreRejectedWithReasons() async throws {
        try await CECHouse.with(name: "cecgarbage") { house in
            try await house.waitUntilReady()
            let mark = await house.mark
            try await house.send("/volume/set", "abc")
            try await house.send("/volume/set", "200")
            try await house.send("/mute/set", "maybe")
            try await house.send("/input/set", "netflix")
            try await house.send("/set", "dim")
            try await MQTTTestClient.poll(timeout: .seconds(20), "five command_rejected events") {
                await house.events(from: mark).filter { $0.type == "command_rejected" }.count >= 5
            }
            let reasons = await house.events(from: mark).filter { $0.type == "command_rejected" }
            #expect(
                reasons.contains {
                    $0.string("reason", contains: "unknown volume command") && $0.string("payload") == "abc"
                })
            #expect(reasons.contains { $0.string("reason", contains: "volume 200 is out of range") })
            #expect(
                reasons.contains {
                    $0.string("reason", contains: "unknown mute command") && $0.string("payload") == "maybe"
                })
            #expect(
                reasons.contains {
                    $0.string("reason", contains: "unknown input") && $0.string("payload") == "netflix"
                        && $0.string("reason", contains: "appletv, receiver")
                })
            #expect(reasons.contains { $0.string("payload") == "dim" && $0.string("reason", contains: "a TV takes") })
            #expect(house.emulator.state.volume == 20)
            #expect(house.emulator.state.tvInput == 0x0000)
            #expect(house.bridge.isRunning)
        }
    }

    @Test func cecTxRequestSendsARawFrame() async throws {
        try await CECHouse.with(name: "cectx") { house in
            try await house.waitUntilReady()
            let since = house.emulator.transmittedFrames.count
            let mark = await house.mark
            let requests = "Thuis/bridge/cectx/request/cec_tx"
            try await house.watcher.publish(topic: requests, text: #"{"transaction":"t1","frame":"10:8f"}"#)
            try await house.watcher.publish(topic: requests, text: #"{"transaction":"t2","frame":"zz"}"#)
            let sent = await house.emulator.waitForTransmitted(since: since, timeout: TestTime.scaled(.seconds(10))) {
                $0.destination == 0 && $0.data == [0x8F]
            }
            #expect(sent != nil, "Give Device Power Status did not reach the bus")
            try await MQTTTestClient.poll(timeout: .seconds(10), "two cec_tx responses") {
                await house.watcher.received(on: "Thuis/bridge/cectx/response/cec_tx").count >= 2
            }
            let responses = await house.watcher.receivedJSON(on: "Thuis/bridge/cectx/response/cec_tx", from: mark)
            #expect(responses.contains { $0.string("transaction") == "t1" && $0.string("status") == "ok" })
            #expect(responses.contains { $0.string("transaction") == "t2" && $0.string("status") == "error" })
        }
    }

    @Test func receivedFramesBecomeCecRxEventsWhenEnabled() async throws {
        try await CECHouse.with(name: "cecrx", rxEvents: true, configure: { $0.tvPoweredOn = true }) { house in
            try await house.waitUntilReady()
            let mark = await house.mark
            house.emulator.tvRemotePower(on: false)  // 0f:36
            try await house.waitForEvent("cec_rx", from: mark) { $0.string("frame") == "0f:36" }
        }
    }

    /// SIGTERM stops the bridge with exit 0, printing how long it took (1.2-3.1 s on a quiet machine). The bound
    /// (SIGKILL after 60 s) only catches a stop that never comes; that libcec cannot hold the shutdown for long is
    /// seen in the shutdown's own grace period (`sigtermWhileLibcecOpenWaitsForASilentAdapterIsPrompt`).
    static func expectPromptStop(_ house: CECHouse, _ situation: String) async {
        let started = ContinuousClock.now
        let termination = await house.bridge.stop(timeout: .seconds(60))
        print("CEC SIGTERM \(situation) → exit: \(ContinuousClock.now - started)")
        #expect(termination == .exited(0), "SIGTERM \(situation): \(String(describing: termination))")
    }

    @Test func sigtermWhileConnectedClosesLibcecAndExitsZero() async throws {
        try await CECHouse.with(name: "cecstop") { house in
            try await house.waitUntilReady()
            await Self.expectPromptStop(house, "while connected")
            #expect(house.emulator.state.ackMask == 0, "libcec_close clears the ack mask")
            #expect(!house.emulator.state.controlled, "libcec_close leaves controlled mode")
        }
    }

    @Test func sigtermWhileLibcecOpensIsPrompt() async throws {
        try await CECHouse.with(name: "cecstopopen") { house in
            // The bridge says `online` on MQTT at once; libcec's open takes over a second more.
            try await house.watcher.waitForMessage(
                topic: "Thuis/bridge/cecstopopen/state", text: "online", timeout: .seconds(20))
            await Self.expectPromptStop(house, "while libcec opens")
        }
    }

    @Test func sigtermWhileTheAdapterIsMissingIsPrompt() async throws {
        try await CECHouse.with(name: "cecstopgone") { house in
            house.emulator.unplug()
            let failed = await house.bridge.waitForLine(timeout: .seconds(30)) {
                $0.text.contains("CEC adapter open failed")
            }
            #expect(failed != nil, "the bridge never retried the open")
            await Self.expectPromptStop(house, "with the adapter missing")
        }
    }

    @Test func sigtermWhileLibcecOpenWaitsForASilentAdapterIsPrompt() async throws {
        try await CECHouse.with(name: "cecstopsilent") { house in
            house.emulator.unplug()
            let failed = await house.bridge.waitForLine(timeout: .seconds(30)) {
                $0.text.contains("CEC adapter open failed")
            }
            #expect(failed != nil, "the bridge never retried the open")
            let silent = try SilentAdapter(link: house.link)
            defer { silent.remove() }
            // libcec_open on a port nobody answers blocks ~33 s; the shutdown waits 3 s for it at most, and says so.
            #expect(await silent.waitForHostBytes(timeout: .seconds(30)), "libcec never opened the silent port")
            await Self.expectPromptStop(house, "while libcec_open waits for a silent adapter")
            await house.bridge.waitForOutputEnd(timeout: .seconds(10))
            #expect(
                house.bridge.outputText.contains("libcec did not stop within the shutdown grace period"),
                "the shutdown waited for libcec_open to give up")
        }
    }
}
