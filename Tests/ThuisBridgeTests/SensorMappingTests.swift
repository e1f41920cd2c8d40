import BridgeCore
import Foundation
import IntegrationSupport
import MQTTDriver
import TestSupport
import Testing
import ZWaveEmulator

/// Sensor nodes, a cover, a thermostat and a lock on MQTT, end to end: the emulated `sensors` network (MultiSensor 6
/// node 2, door sensor node 3, both sleeping; roller shutter node 4; radiator thermostat node 5; door lock node 7,
/// FLiRS), real libopenzwave in the real bridge process, real mosquitto.
@Suite(.endToEnd) struct SensorMappingTests {
    /// Node 2 is in devices.toml with a room and a name only; node 3 is not. Each publishes its readings as retained
    /// topics under its device, lists its sensors with units in the inventory, and follows what the sensor senses.
    /// Node 4 (a roller shutter, with a room and a name only) is a cover (see ``followCover(_:)``), node 5 (a radiator
    /// thermostat) a thermostat (``followThermostat(_:)``), node 7 a lock (``followLock(_:)``).
    @Test func sensorNodesPublishTheirReadingsAndFollowWhatTheySense() async throws {
        var zwave = ConfigFixture.ZWave(devices: [
            .init(node: 2, room: "hall", name: "motion", wakeUpInterval: 7200),
            .init(node: 4, room: "living", name: "shutter"), .init(node: 6, room: "hall", name: "wallmote"),
            .init(node: 7, room: "hall", name: "door"),
            .init(node: 5, room: "bedroom", name: "radiator"),
        ])
        zwave.buttons = [.init(node: 6, button: 2, action: .pressed2x, topic: "Thuis/scene/movie", payload: "on")]
        try await ZWaveHouse.with(name: "sensors", network: .sensors, zwave: zwave, waking: [2, 3, 6]) { house in
            let hall = "hall/motion"
            let door = "unassigned/node3"
            for (device, suffix, text) in [
                (hall, "/temperature", "21.5"), (hall, "/humidity", "45"), (hall, "/luminance", "120"),
                (hall, "/ultraviolet", "1"), (hall, "/battery", "90"), (door, "/temperature", "19.0"),
                (door, "/battery", "80"),
            ] {
                try await house.waitFor(device, suffix, text, timeout: .seconds(30))
            }
            // The inventory lists the sensors with their units (null for a binary sensor), and the kind.
            let inventory = try await house.watcher.waitForMessage(topic: "Thuis/bridge/sensors/devices") { message in
                Inventory(message)?.entries.contains {
                    $0["name"] == "motion" && $0["sensors"]?["temperature"] == "°C" && $0["sensors"]?["motion"] == .null
                } == true
            }
            let entry = Inventory(inventory)?.entries.first { $0["name"] == "motion" }
            #expect(entry?["kind"] == "sensor" && entry?["configured"] == .bool(true))
            #expect(entry?["sensors"]?["battery"] == "%" && entry?["sensors"]?["luminance"] == "lx")
            _ = try await house.watcher.waitForMessage(topic: "Thuis/bridge/sensors/devices") { message in
                Inventory(message)?.entries.contains {
                    $0["name"] == "node3" && $0["kind"] == "sensor" && $0["sensors"]?["contact"] == .null
                        && $0["sensors"]?["tamper"] == .null && $0["sensors"]?["motion"] == nil
                } == true
            }

            try await followCover(house)
            try await followLock(house)
            try await followThermostat(house)
            try await followButtons(house)

            // A binary sensor's state is published from its first report: OpenZWave does not read a Notification's
            // state in the interview, and its placeholder is never published.
            var mark = await house.mark
            #expect(house.stick.setMotion(node: 2, true))
            try await house.waitFor(hall, "/motion", "on", from: mark)
            mark = await house.mark
            #expect(house.stick.setDoor(node: 3, open: true))
            try await house.waitFor(door, "/contact", "open", from: mark)
            mark = await house.mark
            #expect(house.stick.setDoor(node: 3, open: false))
            try await house.waitFor(door, "/contact", "closed", from: mark)
            mark = await house.mark
            #expect(house.stick.setMotion(node: 2, false))
            try await house.waitFor(hall, "/motion", "off", from: mark)
            // The door sensor has tampering but no motion; the MultiSensor no contact.
            let topics = Set(await house.watcher.received.map(\.topic))
            #expect(!topics.contains(house.topic(door, "/motion")) && !topics.contains(house.topic(hall, "/contact")))
            // A sensor device has no state topic and takes no command.
            #expect(await house.watcher.received.allSatisfy { $0.topic != house.topic(hall) })

            // devices.toml's wake_up_interval reached the node after its interview, with the controller as target.
            let wakeUp = try await house.watcher.waitForEvent(
                "wake_up_interval_applied", topic: "Thuis/bridge/sensors/event", timeout: .seconds(60))
            #expect(wakeUp.int("node") == 2 && wakeUp.int("to") == 7200, "\(wakeUp)")
            // Set and read back (Interval Set, Interval Get): at once, or at its next wake-up if it slept by then.
            if wakeUp["confirmed"] != .bool(true) { #expect(house.stick.wake(node: 2)) }
            let set = await house.stick.waitForHostFrame(since: 0, timeout: .seconds(30)) {
                $0.destinationNode == 2 && $0.command?.starts(with: [0x84, 0x04]) == true
            }
            let readBack = try #require(set).index + 1
            _ = await house.stick.waitForHostFrame(since: readBack, timeout: .seconds(30)) {
                $0.destinationNode == 2 && $0.command == [0x84, 0x05]
            }
            let setting = house.stick.wakeUpSetting(node: 2)
            #expect(setting?.interval == 7200 && setting?.target == 1, "\(String(describing: setting))")

            // Between wake-ups the MultiSensor is `asleep`, never `offline`: OpenZWave sends it back to sleep after
            // its interview (Wake Up No More Information). Its button wakes it (`online`), and it sleeps again.
            try await house.waitFor(hall, "/availability", "asleep", timeout: .seconds(60))
            mark = await house.mark
            #expect(house.stick.wake(node: 2))
            try await house.waitFor(hall, "/availability", "online", from: mark)
            try await house.waitFor(hall, "/availability", "asleep", from: mark)
            let availability = await house.watcher.received.filter { $0.topic == house.topic(hall, "/availability") }
            let texts = availability.map(\.text)
            #expect(!texts.drop { $0 != "asleep" }.contains("offline"), "\(texts)")

            // Its battery: `battery_low` off at 90 %; a report of 10 % (under the default 20 %) turns it on, once,
            // with a `low_battery` event.
            try await house.waitFor(hall, "/battery_low", "off")
            mark = await house.mark
            #expect(house.stick.setBattery(node: 2, level: 10))
            try await house.waitFor(hall, "/battery", "10", from: mark)
            try await house.waitFor(hall, "/battery_low", "on", from: mark)
            let low = try await house.watcher.waitForEvent(
                "low_battery", topic: "Thuis/bridge/sensors/event", from: mark)
            #expect(low.string("device") == hall && low.int("battery") == 10, "\(low)")
        }
    }

    /// The Danalock (Door Lock, in devices.toml with a room and a name only) is a lock: `locked` from its interview;
    /// `/set` unlock and lock reach the FLiRS node as Door Lock Operation Set; the knob turned by hand and a jam are
    /// its state; a payload it does not take is rejected with the reason.
    func followLock(_ house: ZWaveHouse) async throws {
        let door = "hall/door"
        _ = try await house.watcher.waitForMessage(topic: "Thuis/bridge/sensors/devices") { message in
            Inventory(message)?.entries.contains { $0["name"] == "door" && $0["kind"] == "lock" } == true
        }
        try await house.waitFor(door, "", "locked")
        for (payload, mode, state) in [("unlock", UInt8(0x00), "unlocked"), ("lock", 0xFF, "locked")] {
            let mark = await house.mark
            let frames = house.stick.hostFrameCount
            try await house.set(door, payload)
            let set = await house.stick.waitForHostFrame(since: frames, timeout: .seconds(30)) {
                $0.destinationNode == 7 && $0.command == [0x62, 0x01, mode]
            }
            #expect(set != nil, "no Door Lock Operation Set \(mode) to node 7")
            try await house.waitFor(door, "", state, from: mark)
        }
        #expect(house.stick.level(node: 7) == 0xFF)

        // The knob by hand, then the bolt jams: jammed until it reports again (here: locked from MQTT).
        var mark = await house.mark
        #expect(house.stick.setLocked(node: 7, false))
        try await house.waitFor(door, "", "unlocked", from: mark)
        mark = await house.mark
        #expect(house.stick.jamLock(node: 7))
        try await house.waitFor(door, "", "jammed", from: mark)
        mark = await house.mark
        try await house.set(door, "lock")
        try await house.waitFor(door, "", "locked", from: mark)

        mark = await house.mark
        try await house.set(door, "open")
        let rejected = try await house.watcher.waitForEvent(
            "command_rejected", topic: "Thuis/bridge/sensors/event", from: mark)
        #expect(rejected.string("reason") == "unknown command \"open\"; a lock takes lock or unlock")
    }

    /// The Eurotronic Spirit (Thermostat Setpoint and Mode beside its valve's Switch Multilevel, in devices.toml with
    /// a room and a name only) is a thermostat, not a dimmer: its setpoint's range and unit and its modes in the
    /// inventory; its mode on the state topic and `/mode`, its setpoint in the device's precision; `/setpoint/set`,
    /// `/mode/set` and `/set` reach the node as Thermostat Setpoint Set and Mode Set, and its reports are published;
    /// a setpoint out of its range is rejected with the reason, and nothing is sent.
    func followThermostat(_ house: ZWaveHouse) async throws {
        let radiator = "bedroom/radiator"
        let inventory = try await house.watcher.waitForMessage(topic: "Thuis/bridge/sensors/devices") { message in
            Inventory(message)?.entries.contains {
                $0["name"] == "radiator" && $0["kind"] == "thermostat" && $0["setpoint"]?["max"] == .double(28)
                    && $0["modes"] == ["off", "heat", "eco", "boost", "manufacturer_specific"]
                    && $0["sensors"]?["temperature"] == "°C"
            } == true
        }
        let entry = Inventory(inventory)?.entries.first { $0["name"] == "radiator" }
        #expect(
            entry?["setpoint"]?["min"] == .double(8) && entry?["setpoint"]?["unit"] == "°C",
            "\(String(describing: entry))")
        #expect(entry?["setpoint"]?["step"] == .double(0.5))
        try await house.waitFor(radiator, "/setpoint", "20.0")
        try await house.waitFor(radiator, "/mode", "heat")
        try await house.waitFor(radiator, "", "heat")
        try await house.waitFor(radiator, "/temperature", "19.50")

        // A setpoint: Thermostat Setpoint Set (heating, precision 2, °C, 2 bytes: 2150; OpenZWave would send 215 in
        // one byte, a negative number), the node's report published.
        var mark = await house.mark
        var frames = house.stick.hostFrameCount
        try await house.set(radiator, "21.5", suffix: "/setpoint/set")
        let set = await house.stick.waitForHostFrame(since: frames, timeout: .seconds(30)) {
            $0.destinationNode == 5 && $0.command?.starts(with: [0x43, 0x01, 0x01, 0x42, 0x08, 0x66]) == true
        }
        #expect(set != nil)
        try await house.waitFor(radiator, "/setpoint", "21.5", from: mark)
        #expect(house.stick.thermostat(node: 5)?.setpoint == 21.5)

        // Modes: eco (Energy Save Heat, 11) on /mode/set, `on` (heat) on /set.
        mark = await house.mark
        frames = house.stick.hostFrameCount
        try await house.set(radiator, "eco", suffix: "/mode/set")
        let mode = await house.stick.waitForHostFrame(since: frames, timeout: .seconds(30)) {
            $0.destinationNode == 5 && $0.command?.starts(with: [0x40, 0x01, 0x0B]) == true
        }
        #expect(mode != nil)
        try await house.waitFor(radiator, "/mode", "eco", from: mark)
        try await house.waitFor(radiator, "", "eco", from: mark)
        #expect(house.stick.thermostat(node: 5)?.mode == 0x0B)
        mark = await house.mark
        try await house.set(radiator, "on")
        try await house.waitFor(radiator, "/mode", "heat", from: mark)
        #expect(house.stick.thermostat(node: 5)?.mode == 0x01)

        // Out of the device's range: rejected with the range, nothing on the wire.
        mark = await house.mark
        frames = house.stick.hostFrameCount
        try await house.set(radiator, "35", suffix: "/setpoint/set")
        let rejected = try await house.watcher.waitForEvent(
            "command_rejected", topic: "Thuis/bridge/sensors/event", from: mark)
        #expect(rejected.string("reason") == "setpoint 35 is out of range; this thermostat takes 8..28 °C")
        #expect(house.stick.thermostat(node: 5)?.setpoint == 21.5)
        let sent = await house.stick.waitForHostFrame(since: frames, timeout: .milliseconds(1)) {
            $0.destinationNode == 5 && $0.command?.starts(with: [0x43, 0x01]) == true
        }
        #expect(sent == nil)
    }

    /// The FGR223 (a motor-control Multilevel Switch, in devices.toml with a room and a name only) is a cover: its
    /// position in % open, its movement from the target value its reports carry; `/set` takes a position, close,
    /// stop and open, each on the wire as Switch Multilevel Set or Stop Level Change; a payload it does not take is
    /// rejected with the reason.
    func followCover(_ house: ZWaveHouse) async throws {
        let shutter = "living/shutter"
        _ = try await house.watcher.waitForMessage(topic: "Thuis/bridge/sensors/devices") { message in
            Inventory(message)?.entries.contains { $0["name"] == "shutter" && $0["kind"] == "cover" } == true
        }
        // Fully open (Z-Wave's 99) is 100; the interview's report says it stands.
        try await house.waitFor(shutter, "", "100")
        try await house.waitFor(shutter, "/movement", "stopped")

        // A position: Switch Multilevel Set 50; closing until it stands at 50.
        var mark = await house.mark
        var frames = house.stick.hostFrameCount
        try await house.set(shutter, "50")
        let set = await house.stick.waitForHostFrame(since: frames, timeout: .seconds(30)) {
            $0.destinationNode == 4 && $0.command?.starts(with: [0x26, 0x01, 50]) == true
        }
        #expect(set != nil)
        try await house.waitFor(shutter, "/movement", "closing", from: mark)
        try await house.waitFor(shutter, "", "50", from: mark)
        try await house.waitFor(shutter, "/movement", "stopped", from: mark)

        // Close, then stop on the way (Stop Level Change): it stands where it stopped, above closed.
        mark = await house.mark
        try await house.set(shutter, "close")
        try await house.waitFor(shutter, "/movement", "closing", from: mark)
        frames = house.stick.hostFrameCount
        try await house.set(shutter, "stop")
        let stop = await house.stick.waitForHostFrame(since: frames, timeout: .seconds(30)) {
            $0.destinationNode == 4 && $0.command == [0x26, 0x05]
        }
        #expect(stop != nil)
        try await house.waitFor(shutter, "/movement", "stopped", from: mark)
        let stopped = try #require(house.stick.level(node: 4))
        #expect(stopped > 0 && stopped < 50, "\(stopped)")
        try await house.waitFor(shutter, "", String(stopped), from: mark)

        // Open: all the way (100).
        mark = await house.mark
        try await house.set(shutter, "open")
        try await house.waitFor(shutter, "/movement", "opening", from: mark)
        try await house.waitFor(shutter, "", "100", from: mark)
        try await house.waitFor(shutter, "/movement", "stopped", from: mark)

        // A payload a cover does not take.
        mark = await house.mark
        try await house.set(shutter, "on")
        let rejected = try await house.watcher.waitForEvent(
            "command_rejected", topic: "Thuis/bridge/sensors/event", from: mark)
        #expect(rejected.string("reason")?.hasPrefix("unknown command \"on\"; a cover takes open, close, stop") == true)
    }

    /// The WallMote Quad (Central Scene v2, asleep between wake-ups, in devices.toml with a room and a name only) is a
    /// `buttons` device of four buttons, each with every action; a press is a `/button/<n>` message (sent by the
    /// node unsolicited, asleep or not), a retransmission (same sequence number) none, a held button's repeated
    /// `held` one, and `[[zwave.button]]` adds its publish.
    func followButtons(_ house: ZWaveHouse) async throws {
        let wallmote = "hall/wallmote"
        let every: JSONValue = ["pressed", "pressed_2x", "pressed_3x", "pressed_4x", "pressed_5x", "held", "released"]
        _ = try await house.watcher.waitForMessage(topic: "Thuis/bridge/sensors/devices") { message in
            Inventory(message)?.entries.contains {
                $0["name"] == "wallmote" && $0["kind"] == "buttons" && $0["buttons"]?["1"] == every
                    && $0["buttons"]?["4"] == every && $0["sensors"]?["battery"] == "%"
            } == true
        }
        func actions(_ button: Int, from mark: Int) async -> [String] {
            await house.watcher.received.dropFirst(mark).filter {
                $0.topic == house.topic(wallmote, "/button/\(button)")
            }
            .map(\.text)
        }
        // Pressed twice in a row (the second within OpenZWave's 1 s reset: a refresh of the same value), then the
        // last notification again: two presses. The double press on button 2, sent after the retransmission,
        // tells it was handled.
        let mark = await house.mark
        #expect(house.stick.pressSceneButton(node: 6, button: 1, .pressed(1)))
        try await house.waitFor(wallmote, "/button/1", "pressed", from: mark)
        let second = await house.mark
        #expect(house.stick.pressSceneButton(node: 6, button: 1, .pressed(1)))
        try await house.waitFor(wallmote, "/button/1", "pressed", from: second)
        #expect(house.stick.repeatSceneNotification(node: 6))
        #expect(house.stick.pressSceneButton(node: 6, button: 2, .pressed(2)))
        try await house.waitFor(wallmote, "/button/2", "pressed_2x", from: mark)
        _ = try await house.watcher.waitForMessage(topic: "Thuis/scene/movie", from: mark) { $0.text == "on" }
        #expect(await actions(1, from: mark) == ["pressed", "pressed"])
        // Held (its repeats every 200 ms), then released: `held` once, then `released`.
        for action in [SceneAction.held, .held, .held, .released] {
            #expect(house.stick.pressSceneButton(node: 6, button: 3, action))
        }
        try await house.waitFor(wallmote, "/button/3", "released", from: mark)
        #expect(await actions(3, from: mark) == ["held", "released"])
        // Only button 2's double press is mapped.
        let scenes = await house.watcher.received.dropFirst(mark).filter { $0.topic == "Thuis/scene/movie" }
        #expect(scenes.count == 1)
    }
}
