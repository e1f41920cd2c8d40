import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing
import ZWaveEmulator

/// Z-Wave devices on MQTT, end to end: real mosquitto, real libopenzwave in the real bridge
/// process, the project's stick emulator.
@Suite(.endToEnd) struct ZWaveMappingTests {
    @Test func dimmerLevelOffOnRestoresAndToggle() async throws {
        try await ZWaveHouse.with(name: "dimmer") { house in
            try await house.waitFor("bedroom/light", "/availability", "online", timeout: .seconds(60))
            try await house.waitFor("bedroom/light", "", "0", timeout: .seconds(60))
            var mark = await house.mark
            try await house.set("bedroom/light", "40")
            try await house.waitFor("bedroom/light", "", "40", from: mark)
            #expect(house.stick.level(node: 2) == 40)

            mark = await house.mark
            try await house.set("bedroom/light", "off")
            try await house.waitFor("bedroom/light", "", "0", from: mark)
            #expect(house.stick.level(node: 2) == 0)

            mark = await house.mark
            try await house.set("bedroom/light", "on")
            try await house.waitFor("bedroom/light", "", "40", from: mark)
            #expect(house.stick.level(node: 2) == 40, "on restores the last level")

            mark = await house.mark
            try await house.set("bedroom/light", "toggle")
            try await house.waitFor("bedroom/light", "", "0", from: mark)
            #expect(house.stick.level(node: 2) == 0)
        }
    }

    /// on a start without the network cache the dimmer is online (the stick is) before OpenZWave
    /// has interviewed it and knows its level value; a `/set` then waits for the value instead of failing.
    @Test func aSetAsTheDimmerComesOnlineOnAColdStartIsCarriedOut() async throws {
        try await ZWaveHouse.with(name: "coldset", radioLatency: .milliseconds(50)) { house in
            try await house.waitFor("bedroom/light", "/availability", "online", timeout: .seconds(60))
            let mark = await house.mark
            try await house.set("bedroom/light", "42")
            try await house.waitFor("bedroom/light", "", "42", from: mark, timeout: .seconds(60))
            #expect(house.stick.level(node: 2) == 42)
            #expect(!(await house.events(from: mark)).contains { $0.type == "command_failed" })
        }
    }

    @Test func socketSwitchesAloneAndMetersStayOnTheirSocket() async throws {
        try await ZWaveHouse.with(name: "sockets") { house in
            try await house.waitFor("living/subwoofer", "/availability", "online", timeout: .seconds(60))
            try await house.waitFor("living/subwoofer", "", "on", timeout: .seconds(60))
            let receiverBefore = house.stick.switchState(node: 3, endpoint: 1)
            try await house.waitFor("living/receiver", "", receiverBefore == true ? "on" : "off", timeout: .seconds(30))
            let mark = await house.mark
            try await house.set("living/subwoofer", "off")
            try await house.waitFor("living/subwoofer", "", "off", from: mark)
            #expect(house.stick.switchState(node: 3, endpoint: 3) == false)
            #expect(house.stick.switchState(node: 3, endpoint: 1) == receiverBefore)
            // Socket 1 was not published as off because of socket 3's reports (they land on instance 1).
            let all = await house.watcher.received
            let receiverStates = all[mark...].filter { $0.topic == "Thuis/device/living/receiver" }.map(\.text)
            #expect(!receiverStates.contains("off"), "socket 1 got \(receiverStates)")

            // A load change on socket 4, sent with the PowerNode's real framing (socket in the destination byte).
            let loadMark = await house.mark
            #expect(house.stick.setLoad(node: 3, endpoint: 4, watts: 250))
            try await house.waitFor("living/ambilight", "/power", "250.0", from: loadMark)
            let receiverPower = await house.watcher.received(on: "Thuis/device/living/receiver/power").map(\.text)
            #expect(!receiverPower.contains("250.0"), "socket 1's power got socket 4's figure: \(receiverPower)")
            // Energy accumulates from the load over (emulated) time; /get re-reads it.
            let energyMark = await house.mark
            let deadline = ContinuousClock.now.advanced(by: TestTime.scaled(.seconds(30)))
            var grown: Double?
            while grown == nil, ContinuousClock.now < deadline {
                try await house.set("living/ambilight", "", suffix: "/get")
                let message = try? await house.watcher.waitForMessage(
                    topic: "Thuis/device/living/ambilight/energy", from: energyMark, timeout: .seconds(3)
                ) { (Double($0.text) ?? 0) > 0 }
                grown = message.flatMap { Double($0.text) }
            }
            #expect((grown ?? 0) > 0, "kWh on /energy did not grow")
            let receiverEnergy = await house.watcher.received(on: "Thuis/device/living/receiver/energy").map(\.text)
            #expect(!receiverEnergy.contains(grown.map { String(format: "%.2f", $0) } ?? "-"), "\(receiverEnergy)")
        }
    }

    @Test func localButtonAndScenes() async throws {
        try await ZWaveHouse.with(name: "buttons") { house in
            try await house.waitFor("bedroom/light", "/availability", "online", timeout: .seconds(60))
            try await house.waitFor("bedroom/light", "", "0", timeout: .seconds(60))
            // The desired configuration is applied after the interview: 28 = 1 is already so (not rewritten),
            // 50 = 20 differs from the device's 10 and is set.
            let applied = try await house.watcher.waitForEvent(
                "configuration_applied", topic: "Thuis/bridge/buttons/event", timeout: .seconds(60))
            #expect(
                applied.array("changed").contains(.object([("parameter", 50), ("from", 10), ("to", 20)])), "\(applied)")
            #expect(!(applied.array("changed") + applied.array("failed")).contains { $0["parameter"] == 28 })
            #expect(house.stick.configParameter(node: 2, 50) == 20)
            #expect(house.stick.configParameter(node: 2, 28) == 1)

            var mark = await house.mark
            #expect(house.stick.pressButton(node: 2, button: .s1, .single))
            let state = try await house.watcher.waitForMessage(topic: "Thuis/device/bedroom/light", from: mark) {
                $0.text != "0"
            }
            #expect(Int(state.text) == Int(house.stick.level(node: 2) ?? 0))

            mark = await house.mark
            #expect(house.stick.pressButton(node: 2, button: .s2, .single))
            let scene = try await house.watcher.waitForMessage(
                topic: "Thuis/device/bedroom/light/scene", text: "26", from: mark)
            #expect(!scene.retained)
            let mapped = try await house.watcher.waitForMessage(
                topic: "Thuis/scene/homeTheater", text: "on", from: mark)
            #expect(!mapped.retained)

            // A restart replays no scene (nothing retained under /scene).
            let late = try await MQTTTestClient.connect(port: house.broker.port)
            try await late.subscribe("Thuis/device/bedroom/light/scene")
            try await late.subscribe("Thuis/scene/#")
            try await late.subscribe("Thuis/device/bedroom/light")
            _ = try await late.waitForMessage(topic: "Thuis/device/bedroom/light")
            #expect(await late.received(on: "Thuis/device/bedroom/light/scene").isEmpty)
            #expect(await late.received(on: "Thuis/scene/homeTheater").isEmpty)
            await late.close()
        }
    }

    @Test func deadNodeGoesOfflineAndComesBack() async throws {
        try await ZWaveHouse.with(name: "dead") { house in
            try await house.waitFor("bedroom/light", "", "0", timeout: .seconds(60))
            house.stick.setDead(node: 2, true)
            let mark = await house.mark
            // The library notices a dead node when it talks to it.
            try await house.set("bedroom/light", "30")
            try await house.waitFor("bedroom/light", "/availability", "offline", from: mark, timeout: .seconds(60))
            try await house.watcher.waitForEvent("node_dead", topic: "Thuis/bridge/dead/event", from: mark)
            house.stick.setDead(node: 2, false)
            let back = await house.mark
            // The node speaks again (a local button press sends its new level): the library marks it alive.
            #expect(house.stick.pressButton(node: 2, button: .s1, .single))
            try await house.waitFor("bedroom/light", "/availability", "online", from: back, timeout: .seconds(60))
            try await house.watcher.waitForEvent("node_alive", topic: "Thuis/bridge/dead/event", from: back)
        }
    }

    /// one event per fact, whatever the node's configured endpoints. A PowerNode configured as
    /// sockets 2-6 only (no device at the node itself or its endpoint 1) dies: exactly one `node_dead` with the node
    /// and its five devices, each marked offline; it comes back: exactly one `node_alive`, each online again.
    @Test func aDeadPowerNodeConfiguredAsSocketsTwoToSixIsOneEventAndEveryDeviceOffline() async throws {
        let sockets = (2...6).map { "living/socket\($0)" }
        let zwave = ConfigFixture.ZWave(
            devices: (2...6).map { (socket: Int) in
                .init(node: 3, instance: socket, room: "living", name: "socket\(socket)")
            })
        try await ZWaveHouse.with(name: "deadnode", zwave: zwave) { house in
            for socket in sockets {
                try await house.waitFor(socket, "/availability", "online", timeout: .seconds(60))
            }
            try await house.waitFor("living/socket2", "", "on", timeout: .seconds(60))
            let mark = await house.mark
            house.stick.setDead(node: 3, true)
            // The library notices a dead node when it talks to it.
            try await house.set("living/socket2", "off")
            try await house.watcher.waitForEvent(
                "node_dead", topic: "Thuis/bridge/deadnode/event", from: mark, timeout: .seconds(60))
            for socket in sockets {
                try await house.waitFor(socket, "/availability", "offline", from: mark)
            }
            // More commands to the dead node while it is dead: still the one fact.
            try await house.set("living/socket3", "off")
            try await house.set("living/socket4", "toggle")
            let back = await house.mark
            house.stick.setDead(node: 3, false)
            try await house.watcher.waitForEvent(
                "node_alive", topic: "Thuis/bridge/deadnode/event", from: back, timeout: .seconds(60))
            for socket in sockets {
                try await house.waitFor(socket, "/availability", "online", from: back)
            }
            let events = await house.events(from: mark).map(\.json)
            let dead = events.filter { $0["type"] == "node_dead" }
            let alive = events.filter { $0["type"] == "node_alive" }
            #expect(dead.count == 1, "\(events.map(\.serialized))")
            #expect(alive.count == 1, "\(events.map(\.serialized))")
            for event in dead + alive {
                #expect(event["node"] == 3)
                #expect(event["devices"] == .array(sockets.map { .string($0) }), "\(event.serialized)")
            }
        }
    }

    /// one format from the first message. The dimmer is at 40 when the bridge starts: its
    /// first state is `40` (not OpenZWave's placeholder `0`), and its power and energy are published with the
    /// device's decimals from the first message on (`24.0`, `0.00`; never `0` first); again after a restart
    /// with OpenZWave's network cache, which keeps values without their precision.
    @Test func eachStateIsFirstPublishedFromTheDeviceInItsOwnFormat() async throws {
        var network = ZWaveHouse.network
        if let index = network.nodes.firstIndex(where: { $0.id == 2 }) { network.nodes[index].level = 40 }
        try await ZWaveHouse.with(name: "format", network: network) { house in
            let watts = /^-?[0-9]+\.[0-9]$/
            let kWh = /^-?[0-9]+\.[0-9]{2}$/
            func check(from mark: Int, _ when: String) async throws {
                try await house.waitFor("bedroom/light", "", "40", from: mark, timeout: .seconds(60))
                for topic in ["bedroom/light/power", "living/ambilight/power"] {
                    _ = try await house.watcher.waitForMessage(topic: "Thuis/device/\(topic)", from: mark)
                }
                for topic in ["bedroom/light/energy", "living/ambilight/energy"] {
                    _ = try await house.watcher.waitForMessage(topic: "Thuis/device/\(topic)", from: mark)
                }
                let all = await house.watcher.received.dropFirst(mark)
                let states = all.filter { $0.topic == "Thuis/device/bedroom/light" }.map(\.text)
                #expect(states.first == "40", "\(when): the dimmer's states \(states)")
                for message in all where message.topic.hasSuffix("/power") {
                    #expect(message.text.wholeMatch(of: watts) != nil, "\(when): \(message.topic) \(message.text)")
                }
                for message in all where message.topic.hasSuffix("/energy") {
                    #expect(message.text.wholeMatch(of: kWh) != nil, "\(when): \(message.topic) \(message.text)")
                }
            }
            try await check(from: 0, "first start")
            #expect(await house.stopBridge() == .exited(0))
            let mark = await house.mark
            try house.startBridge()
            try await check(from: mark, "restart with the cache")
        }
    }

    @Test func aBurstOfFiveHundredLevelsEndsAtTheLastAndCostsFewRadioCommands() async throws {
        try await ZWaveHouse.with(name: "burst") { house in
            try await house.waitFor("bedroom/light", "", "0", timeout: .seconds(60))
            let before = house.stick.receivedHostFrames.count
            let mark = await house.mark
            // 499 levels from 1 to 90, then a last one that none of them was: the state that says the burst is over
            // cannot be an intermediate level (on a loaded machine the bridge applies some while the test still sends).
            for level in 1...499 {
                try await house.set("bedroom/light", String(level % 90 + 1))
            }
            let last = 95
            try await house.set("bedroom/light", String(last))
            try await house.waitFor("bedroom/light", "", String(last), from: mark, timeout: .seconds(60))
            #expect(house.stick.level(node: 2) == UInt8(last))
            let sets = house.stick.receivedHostFrames.dropFirst(before).filter {
                $0.destinationNode == 2
                    && ($0.command?.starts(with: [0x26, 0x01]) == true
                        || $0.command?.starts(with: [0x60, 0x0D]) == true
                            && $0.command?.dropFirst(4).starts(with: [0x26, 0x01]) == true)
            }
            print("burst of 500 levels: \(sets.count) Switch Multilevel Set frames on the radio")
            #expect(sets.count < 100, "the queue must coalesce: \(sets.count) radio commands for 500 levels")
        }
    }

    @Test func malformedPayloadsAreRejectedAndTheDeviceIsUntouched() async throws {
        try await ZWaveHouse.with(name: "garbage") { house in
            try await house.waitFor("bedroom/light", "", "0", timeout: .seconds(60))
            let mark = await house.mark
            // 1 MB: over the bridge's MQTT 5 Maximum Packet Size, so the broker never sends it to the bridge
            // (published first: the rejections of the later ones prove the broker has dealt with it).
            try await house.set("bedroom/light", String(repeating: "7", count: 1 << 20))
            for payload in ["abc", "-5", "1e9", "", String(repeating: "7", count: 10_000)] {
                try await house.set("bedroom/light", payload)
            }
            try await MQTTTestClient.poll(timeout: .seconds(20), "five command_rejected events") {
                await house.events(from: mark).filter { $0.type == "command_rejected" }.count >= 5
            }
            let reasons = await house.events(from: mark).filter { $0.type == "command_rejected" }
            #expect(
                reasons.contains { $0.string("reason", contains: "unknown command") && $0.string("payload") == "abc" })
            #expect(reasons.contains { $0.string("reason", contains: "out of range") })
            #expect(reasons.contains { $0.string("reason", contains: "empty payload") })
            #expect(reasons.contains { $0.string("reason", contains: "too large (10000 bytes)") })
            #expect(
                !reasons.contains { $0.int("payload_bytes") == 1 << 20 || $0.string("reason", contains: "\(1 << 20)") },
                "the 1 MB payload reached the bridge")
            #expect(reasons.count == 5, "\(reasons)")
            #expect(house.stick.level(node: 2) == 0)
            #expect(house.bridge.isRunning)
        }
    }

    @Test func restartWithTheCacheRepublishesAndIgnoresARetainedSet() async throws {
        try await ZWaveHouse.with(name: "cache") { house in
            try await house.waitFor("bedroom/light", "", "0", timeout: .seconds(60))
            try await house.waitFor("living/ambilight", "", "on", timeout: .seconds(60))
            #expect(await house.stopBridge() == .exited(0))
            let cache = try FileManager.default.contentsOfDirectory(atPath: house.directory.file("state"))
            #expect(cache.contains { $0.hasPrefix("ozwcache_") }, "state dir: \(cache)")
            // A retained /set left in the broker while the bridge is down must not run when it comes back.
            try await house.watcher.publish(topic: "Thuis/device/bedroom/light/set", text: "77", retain: true)
            let mark = await house.mark
            try house.startBridge()
            try await house.waitFor("bedroom/light", "", "0", from: mark, timeout: .seconds(60))
            try await house.waitFor("living/ambilight", "", "on", from: mark, timeout: .seconds(60))
            try await MQTTTestClient.poll(timeout: .seconds(20), "the retained /set is reported") {
                await house.events(from: mark).contains {
                    $0.type == "command_rejected" && $0.string("reason", contains: "retained")
                }
            }
            #expect(house.stick.level(node: 2) == 0)
            try await house.watcher.publish(topic: "Thuis/device/bedroom/light/set", payload: [], retain: true)
        }
    }
}
