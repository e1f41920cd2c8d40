import BridgeCore
import CECEmulator
import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing
import ZWaveEmulator

/// the bridge's MQTT discovery, read by a real Home Assistant Core (2025.4.4, headless, on the house's
/// own mosquitto): what Home Assistant makes of it in its registries and states, and what its own service calls
/// do to the emulated Z-Wave stick and CEC adapter. One Home Assistant for the suite; every case leaves the
/// house as it found it, except the exclusion case, which removes node 4 that no other case uses.
@Suite(
    .serialized,
    .enabled(
        if: HomeAssistantInstall.isInstalled || HomeAssistantInstall.isRequired,
        Comment(rawValue: HomeAssistantInstall.missing)),
    .homeAssistantHouse)
struct HomeAssistantIntegrationTests {
    typealias Expected = ExpectedEntity

    @Test func entitiesDevicesAndTriggersAreInHomeAssistantsRegistries() async throws {
        try await HomeAssistantHouse.with { house in
            let homeAssistant = try house.homeAssistant
            let ids = try await homeAssistant.waitForEntities(Expected.shared.map(\.uniqueID))
            for entityID in ids.values { try await homeAssistant.waitForState(entityID, not: "unavailable") }
            let snapshot = try await homeAssistant.snapshot()

            let known = Set(Expected.all.map(\.uniqueID))
            let unexpected = snapshot.entities.map(\.uniqueID).filter { !known.contains($0) }
            #expect(unexpected.isEmpty, "entities nobody expects: \(unexpected)")
            for expected in Expected.shared {
                let entity = try #require(snapshot.entity(expected.uniqueID), "no entity \(expected)")
                #expect(entity.domain == expected.domain, "\(expected): \(entity.entityID)")
                #expect(entity.deviceClass == expected.deviceClass, "\(expected) (registry)")
                let state = try #require(snapshot.state(entity.entityID), "no state for \(entity.entityID)")
                #expect(state.attributes["device_class"]?.text == expected.deviceClass, "\(state)")
                #expect(state.attributes["state_class"]?.text == expected.stateClass, "\(state)")
                #expect(state.attributes["unit_of_measurement"]?.text == expected.unit, "\(state)")
                let device = snapshot.device(id: entity.deviceID)
                #expect(device?.identifiers == [expected.device], "\(expected) is on \(String(describing: device))")
            }

            // One device per physical device: the PowerNode's three sockets (nine entities) share one.
            let powerNode = Expected.shared.filter { $0.device == Expected.zwave("3") }
            #expect(powerNode.count == 9)
            let powerNodeDevices = Set(powerNode.map { snapshot.entity($0.uniqueID)?.deviceID })
            #expect(powerNodeDevices.count == 1, "the PowerNode's entities are on \(powerNodeDevices)")
            let names = [
                Expected.bridgeDevice: "Thuis bridge ha", Expected.zwave("2"): "Bedroom light",
                Expected.zwave("3"): "Z-Wave node 3 (PowerNode 6 port)", Expected.tvDevice: "Living tv",
            ]
            for (identifier, name) in names {
                #expect(snapshot.device(identifier: identifier)?.name == name, "device \(identifier)")
            }
            // Every device hangs off the bridge's.
            let bridge = try #require(snapshot.device(identifier: Expected.bridgeDevice))
            #expect(bridge.viaDeviceID == nil)
            for device in snapshot.devices where device.id != bridge.id {
                #expect(device.viaDeviceID == bridge.id, "\(device.name ?? device.id) is not via the bridge")
            }

            // The TV's entity ids are those the media player example in HomeAssistant.md uses.
            let tv = Expected.tvDevice
            #expect(ids[tv + "_power"] == "switch.living_tv")
            #expect(ids[tv + "_input"] == "select.living_tv_input")
            #expect(ids[tv + "_mute"] == "switch.living_tv_mute")
            #expect(ids[tv + "_volume_up"] == "button.living_tv_volume_up")
            #expect(ids[tv + "_volume_down"] == "button.living_tv_volume_down")
            let input = snapshot.state("select.living_tv_input")
            #expect(input?.attributes["options"] == ["appletv", "receiver"], "\(String(describing: input))")
            let volume = try #require(ids[tv + "_volume"].flatMap { snapshot.state($0) })
            #expect(volume.attributes["min"]?.number == 0 && volume.attributes["max"]?.number == 100, "\(volume)")
            #expect(volume.attributes["step"]?.number == 1 && volume.attributes["mode"] == "slider", "\(volume)")
            #expect(snapshot.state(ids[Expected.bridgeDevice + "_connection"] ?? "")?.state == "on")

            // The dimmer's device triggers: S1 and S2, five kinds of press each.
            let dimmer = try #require(snapshot.device(identifier: Expected.zwave("2")))
            let triggers = try await homeAssistant.triggers(device: dimmer.id).filter { $0["domain"] == "mqtt" }
            let offered = triggers.map { "\($0["subtype"]?.text ?? "?") \($0["type"]?.text ?? "?")" }
            var expected: [String] = []
            for button in ["button_1", "button_2"] {
                for press in ["short_press", "double_press", "triple_press", "long_press", "long_release"] {
                    expected.append("\(button) button_\(press)")
                }
            }
            #expect(offered.sorted() == expected.sorted(), "device triggers: \(offered)")
        }
    }

    /// The MultiSensor 6 (node 5, `hall/motion`) and the door sensor (node 6, unassigned), entity by entity: each
    /// sensor is an entity of its node's device with Home Assistant's device class, state class, unit and entity
    /// category, whose state is the bridge's retained reading; readings the sensors report later (a temperature, a
    /// battery level, motion, the door, the tamper switch) reach Home Assistant's states.
    @Test func sensorEntitiesShowTheReadingsWithTheirClassesAndUnits() async throws {
        try await HomeAssistantHouse.with { house in
            let homeAssistant = try house.homeAssistant
            let ids = try await homeAssistant.waitForEntities(Expected.sensors.map(\.uniqueID))
            let hall = HomeAssistantHouse.multiSensor
            let door = HomeAssistantHouse.doorSensor
            // The interview's readings, as the bridge publishes them, are Home Assistant's states.
            let readings = [
                ("5_temperature", hall, "temperature", "21.5"), ("5_humidity", hall, "humidity", "45"),
                ("5_luminance", hall, "luminance", "120"), ("5_ultraviolet", hall, "ultraviolet", "1"),
                ("5_battery", hall, "battery", "90"), ("6_temperature", door, "temperature", "19.0"),
                ("6_battery", door, "battery", "80"),
            ]
            for (role, device, sensor, payload) in readings {
                try await house.watcher.waitForMessage(
                    topic: "Thuis/device/\(device)/\(sensor)", text: payload, timeout: .seconds(30))
                try await homeAssistant.waitForState(try #require(ids[Expected.zwave(role)]), payload)
            }
            let snapshot = try await homeAssistant.snapshot()
            for expected in Expected.sensors {
                let entity = try #require(snapshot.entity(expected.uniqueID), "no entity \(expected)")
                #expect(entity.domain == expected.domain, "\(expected): \(entity.entityID)")
                #expect(entity.deviceClass == expected.deviceClass, "\(expected) (registry)")
                #expect(entity.entityCategory == expected.entityCategory, "\(expected) (registry)")
                let state = try #require(snapshot.state(entity.entityID), "no state for \(entity.entityID)")
                #expect(state.state != "unavailable", "\(state)")
                #expect(state.attributes["device_class"]?.text == expected.deviceClass, "\(state)")
                #expect(state.attributes["state_class"]?.text == expected.stateClass, "\(state)")
                #expect(state.attributes["unit_of_measurement"]?.text == expected.unit, "\(state)")
                let device = snapshot.device(id: entity.deviceID)
                #expect(device?.identifiers == [expected.device], "\(expected) is on \(String(describing: device))")
            }
            // Named after the device: entity ids a person can guess.
            #expect(ids[Expected.zwave("5_temperature")] == "sensor.hall_motion_temperature")
            #expect(ids[Expected.zwave("5_motion")] == "binary_sensor.hall_motion_motion")
            #expect(snapshot.device(identifier: Expected.zwave("5"))?.name == "Hall motion")
            let doorDevice = snapshot.device(identifier: Expected.zwave("6"))?.name ?? ""
            #expect(doorDevice.hasPrefix("Z-Wave node 6"), "\(doorDevice)")

            // Readings that change: a temperature, the battery, motion, the door, the tamper switch.
            #expect(house.stick.setSensor(node: 5, type: 1, value: 23.4))
            try await homeAssistant.waitForState(try #require(ids[Expected.zwave("5_temperature")]), "23.4")
            #expect(house.stick.setBattery(node: 6, level: 75))
            try await homeAssistant.waitForState(try #require(ids[Expected.zwave("6_battery")]), "75")
            let batteryLow = try #require(ids[Expected.zwave("6_battery_low")])
            try await homeAssistant.waitForState(batteryLow, "off", attributes: [("device_class", "battery")])
            #expect(house.stick.setBattery(node: 6, level: 10))
            try await homeAssistant.waitForState(batteryLow, "on")
            let motion = try #require(ids[Expected.zwave("5_motion")])
            #expect(house.stick.setMotion(node: 5, true))
            try await homeAssistant.waitForState(motion, "on", attributes: [("device_class", "motion")])
            #expect(house.stick.setMotion(node: 5, false))
            try await homeAssistant.waitForState(motion, "off")
            let contact = try #require(ids[Expected.zwave("6_contact")])
            for (open, state) in [(true, "on"), (false, "off")] {
                let mark = await house.mark
                #expect(house.stick.setDoor(node: 6, open: open))
                try await house.watcher.waitForMessage(
                    topic: "Thuis/device/\(door)/contact", text: open ? "open" : "closed", from: mark,
                    timeout: .seconds(15))
                try await homeAssistant.waitForState(contact, state, attributes: [("device_class", "door")])
            }
            #expect(house.stick.tamper(node: 6))
            try await homeAssistant.waitForState(try #require(ids[Expected.zwave("6_tamper")]), "on")
        }
    }

    /// The WallMote Quad (node 8, `hall/wallmote`): an event entity per button whose event types are the actions
    /// the button supports, and a device trigger per button and action; a press, a double press and a hold on the
    /// emulator are the entity's `event_type` (the bare word on the bridge's topic, through the value template).
    @Test func sceneButtonsAreEventEntitiesAndDeviceTriggers() async throws {
        try await HomeAssistantHouse.with { house in
            let homeAssistant = try house.homeAssistant
            let ids = try await homeAssistant.waitForEntities(Expected.buttons.map(\.uniqueID))
            let actions: JSONValue = [
                "pressed", "pressed_2x", "pressed_3x", "pressed_4x", "pressed_5x", "held", "released",
            ]
            let button1 = try #require(ids[Expected.zwave("10_button_1")])
            #expect(button1 == "event.hall_wallmote_button_1")
            let first = try await homeAssistant.waitForState(button1, attributes: [("event_types", actions)])
            #expect(first.state == "unknown", "\(first)")
            for (action, payload) in [
                (SceneAction.pressed(1), "pressed"), (.pressed(2), "pressed_2x"), (.held, "held"),
            ] {
                let mark = await house.mark
                #expect(house.stick.pressSceneButton(node: 10, button: 1, action))
                try await house.watcher.waitForMessage(
                    topic: "Thuis/device/\(HomeAssistantHouse.wallmote)/button/1", text: payload, from: mark)
                try await homeAssistant.waitForState(button1, attributes: [("event_type", .string(payload))])
            }
            #expect(house.stick.pressSceneButton(node: 10, button: 1, .released))
            try await homeAssistant.waitForState(button1, attributes: [("event_type", "released")])
            // Another button's entity saw none of it.
            let button4 = try await homeAssistant.waitForState(try #require(ids[Expected.zwave("10_button_4")]))
            #expect(button4.state == "unknown", "\(button4)")

            let snapshot = try await homeAssistant.snapshot()
            let wallmote = try #require(snapshot.device(identifier: Expected.zwave("10")))
            #expect(wallmote.name == "Hall wallmote")
            let triggers = try await homeAssistant.triggers(device: wallmote.id).filter { $0["domain"] == "mqtt" }
            #expect(triggers.count == 4 * 7, "\(triggers)")
            let offered = Set(triggers.map { "\($0["subtype"]?.text ?? "?") \($0["type"]?.text ?? "?")" })
            #expect(
                offered.contains("button_3 button_double_press") && offered.contains("button_4 button_long_release"))
        }
    }

    @Test func lightServiceCallsReachTheDimmerAsOneSetEach() async throws {
        try await HomeAssistantHouse.with { house in
            let homeAssistant = try house.homeAssistant
            let light = try #require(try await homeAssistant.waitForEntities([Expected.dimmerLight]).values.first)
            try await homeAssistant.waitForState(light, not: "unavailable")
            // A known start: off, with a last level (30) that is not the one asked for below.
            for (payload, level) in [("30", 30), ("off", 0)] as [(String, UInt8)] {
                try await house.watcher.publish(topic: "Thuis/device/\(HomeAssistantHouse.dimmer)/set", text: payload)
                try await MQTTTestClient.poll(timeout: .seconds(15), "the dimmer at \(level)") {
                    house.stick.level(node: 2) == level
                }
            }
            try await homeAssistant.waitForState(light, "off")

            // A brightness: Home Assistant publishes the level, then `on`; the dimmer gets one Set.
            var sent = try await house.dimmerCommands {
                try await homeAssistant.call("light", "turn_on", light, [("brightness", 128)])
            }
            #expect(sent.published == ["50", "on"], "Home Assistant published \(sent.published)")
            #expect(sent.levels == [50], "Switch Multilevel Sets for brightness 128: \(sent.levels)")
            #expect(house.stick.level(node: 2) == 50)
            try await homeAssistant.waitForState(light, "on", attributes: [("brightness", 129)])

            sent = try await house.dimmerCommands { try await homeAssistant.call("light", "turn_off", light) }
            #expect(sent.published == ["off"], "Home Assistant published \(sent.published)")
            #expect(sent.levels == [0], "Switch Multilevel Sets for turn_off: \(sent.levels)")
            let off = try await homeAssistant.waitForState(light, "off")
            #expect(off.attributes["brightness"]?.number == nil, "\(off)")

            // No brightness: `on`, and the bridge brings back the dimmer's last level.
            sent = try await house.dimmerCommands { try await homeAssistant.call("light", "turn_on", light) }
            #expect(sent.published == ["on"], "Home Assistant published \(sent.published)")
            #expect(sent.levels == [50], "Switch Multilevel Sets for turn_on: \(sent.levels)")
            try await homeAssistant.waitForState(light, "on", attributes: [("brightness", 129)])

            _ = try await house.dimmerCommands { try await homeAssistant.call("light", "turn_off", light) }
            try await homeAssistant.waitForState(light, "off")
        }
    }

    /// The radiator thermostat is a climate entity with the device's range, step, setpoint, mode and temperature;
    /// Home Assistant's climate services reach the emulated Spirit (Thermostat Setpoint Set, Mode Set: heat, the eco
    /// preset, off), and what it reports comes back as Home Assistant's state.
    @Test func climateServiceCallsSetTheRadiator() async throws {
        try await HomeAssistantHouse.with { house in
            let homeAssistant = try house.homeAssistant
            let climate = try #require(try await homeAssistant.waitForEntities([Expected.radiatorClimate]).values.first)
            try await homeAssistant.waitForState(
                climate, "heat",
                attributes: [
                    ("temperature", .double(20)), ("current_temperature", .double(19.5)), ("min_temp", .double(8)),
                    ("max_temp", .double(28)), ("target_temp_step", .double(0.5)), ("hvac_modes", ["off", "heat"]),
                    ("preset_modes", ["none", "eco", "boost"]), ("preset_mode", "none"),
                ])
            var frames = house.stick.hostFrameCount
            try await homeAssistant.call("climate", "set_temperature", climate, [("temperature", .double(22.5))])
            try await homeAssistant.waitForState(climate, "heat", attributes: [("temperature", .double(22.5))])
            #expect(house.stick.thermostat(node: 9)?.setpoint == 22.5)
            let sets = house.stick.commands(to: 9, since: frames).filter { $0.bytes.starts(with: [0x43, 0x01]) }
            #expect(sets.count == 1 && sets.first?.bytes.prefix(3) == [0x43, 0x01, 0x01], "\(sets)")
            for (service, data, state, preset, mode) in [
                ("set_preset_mode", [("preset_mode", JSONValue.string("eco"))], "heat", "eco", 0x0B),
                ("set_preset_mode", [("preset_mode", "none")], "heat", "none", 0x01),
                ("set_hvac_mode", [("hvac_mode", "off")], "off", "none", 0x00),
            ] as [(String, [(String, JSONValue)], String, String, UInt8)] {
                frames = house.stick.hostFrameCount
                try await homeAssistant.call("climate", service, climate, data)
                try await homeAssistant.waitForState(climate, state, attributes: [("preset_mode", .string(preset))])
                #expect(house.stick.thermostat(node: 9)?.mode == mode, "\(service) \(data)")
                let modeSets = house.stick.commands(to: 9, since: frames).filter {
                    $0.bytes.starts(with: [0x40, 0x01])
                }
                #expect(modeSets.map { Array($0.bytes.prefix(3)) } == [[0x40, 0x01, mode]], "\(modeSets)")
            }
        }
    }

    /// Home Assistant's cover services move the emulated shutter (Switch Multilevel Set), and the position and
    /// movement it reports reach Home Assistant's state: closing, then open at 40 %; opening, then open at 100 %.
    @Test func coverServiceCallsMoveTheShutter() async throws {
        try await HomeAssistantHouse.with { house in
            let homeAssistant = try house.homeAssistant
            let cover = try #require(try await homeAssistant.waitForEntities([Expected.shutterCover]).values.first)
            try await homeAssistant.waitForState(cover, "open", attributes: [("current_position", 100)])
            for (service, data, level, moving, position) in [
                ("set_cover_position", [("position", .int(40))], 40, "closing", 40),
                ("open_cover", [], 99, "opening", 100),
            ] as [(String, [(String, JSONValue)], UInt8, String, Int)] {
                let frames = house.stick.hostFrameCount
                try await homeAssistant.call("cover", service, cover, data)
                try await homeAssistant.waitForState(cover, moving)
                try await homeAssistant.waitForState(
                    cover, "open", attributes: [("current_position", .int(position))], timeout: .seconds(60))
                #expect(house.stick.level(node: 7) == level)
                let sets = house.stick.sets(to: 7, since: frames)
                #expect(sets.count == 1 && sets.first?.bytes.prefix(3) == [0x26, 0x01, level], "\(service): \(sets)")
            }
        }
    }

    /// The door lock (locked from its interview) is Home Assistant's lock: `lock.unlock` and `lock.lock` reach the
    /// emulated Danalock as Door Lock Operation Sets, and its reports (and a jam) Home Assistant's state.
    @Test func lockServiceCallsReachTheLock() async throws {
        try await HomeAssistantHouse.with { house in
            let homeAssistant = try house.homeAssistant
            let lock = try #require(try await homeAssistant.waitForEntities([Expected.doorLock]).values.first)
            try await homeAssistant.waitForState(lock, "locked")
            for (service, mode, state) in [("unlock", UInt8(0x00), "unlocked"), ("lock", 0xFF, "locked")] {
                let frames = house.stick.hostFrameCount
                try await homeAssistant.call("lock", service, lock)
                try await homeAssistant.waitForState(lock, state)
                let set = await house.stick.waitForHostFrame(since: frames, timeout: .seconds(30)) {
                    $0.destinationNode == 8 && $0.command?.starts(with: [0x62, 0x01]) == true
                }
                #expect(set?.command == [0x62, 0x01, mode], "\(service): \(String(describing: set))")
                #expect(house.stick.level(node: 8) == mode)
            }
            #expect(house.stick.jamLock(node: 8))
            try await homeAssistant.waitForState(lock, "jammed")
            // The knob by hand: the lock reports again, no longer jammed.
            #expect(house.stick.setLocked(node: 8, true))
            try await homeAssistant.waitForState(lock, "locked")
        }
    }

    @Test func switchServiceCallsReachTheirSocket() async throws {
        try await HomeAssistantHouse.with { house in
            let homeAssistant = try house.homeAssistant
            let ambilight = Expected.zwave("3_4_switch")
            let socket = try #require(try await homeAssistant.waitForEntities([ambilight]).values.first)
            try await homeAssistant.waitForState(socket, not: "unavailable")
            let others = [1, 2, 3, 5, 6].map { house.stick.switchState(node: 3, endpoint: UInt8($0)) }
            for (service, on) in [("turn_off", false), ("turn_on", true)] {
                let frames = house.stick.hostFrameCount
                try await homeAssistant.call("switch", service, socket)
                try await MQTTTestClient.poll(timeout: .seconds(15), "socket 4 \(on ? "on" : "off")") {
                    house.stick.switchState(node: 3, endpoint: 4) == on
                }
                try await homeAssistant.waitForState(socket, on ? "on" : "off")
                let sets = house.stick.sets(to: 3, since: frames)
                #expect(sets.count == 1 && sets.first?.endpoint == 4, "Sets to the PowerNode for \(service): \(sets)")
                #expect(sets.first?.bytes.prefix(3) == [0x25, 0x01, on ? 0xFF : 0x00], "\(sets)")
            }
            #expect([1, 2, 3, 5, 6].map { house.stick.switchState(node: 3, endpoint: UInt8($0)) } == others)
        }
    }

    @Test func tvServiceCallsReachTheCECBus() async throws {
        try await HomeAssistantHouse.with { house in
            let homeAssistant = try house.homeAssistant
            let tv = Expected.tvDevice
            let ids = try await homeAssistant.waitForEntities(
                ["power", "input", "volume", "volume_up", "mute"].map { "\(tv)_\($0)" })
            let power = try #require(ids[tv + "_power"])
            let input = try #require(ids[tv + "_input"])
            let volume = try #require(ids[tv + "_volume"])
            for entityID in ids.values { try await homeAssistant.waitForState(entityID, not: "unavailable") }

            var sent = house.cec.transmittedCount
            try await homeAssistant.call("switch", "turn_on", power)
            let wake = await house.cec.waitForTransmitted(since: sent, timeout: TestTime.scaled(.seconds(10))) {
                $0.destination == 0 && $0.opcode == 0x04
            }
            #expect(wake != nil, "no Image View On reached the TV")
            try await house.waitForCEC("the TV on") { $0.tvPoweredOn }
            try await homeAssistant.waitForState(power, "on")

            for (option, address) in [("appletv", UInt16(0x1000)), ("receiver", 0x2000)] {
                sent = house.cec.transmittedCount
                try await homeAssistant.call("select", "select_option", input, [("option", .string(option))])
                let path = await house.cec.waitForTransmitted(since: sent, timeout: TestTime.scaled(.seconds(10))) {
                    $0.opcode == 0x86 && $0.data == [0x86, UInt8(address >> 8), UInt8(address & 0xFF)]
                }
                #expect(path != nil, "no Set Stream Path to \(option)")
                try await house.waitForCEC("the TV on \(option)") { $0.tvInput == address }
                try await homeAssistant.waitForState(input, option)
            }

            try await homeAssistant.call("number", "set_value", volume, [("value", 35)])
            try await house.waitForCEC("the audio system at volume 35") { $0.volume == 35 }
            try await homeAssistant.waitForState(volume, "35")
            try await homeAssistant.call("button", "press", try #require(ids[tv + "_volume_up"]))
            try await house.waitForCEC("the audio system at volume 36") { $0.volume == 36 }
            try await homeAssistant.waitForState(volume, "36")

            let mute = try #require(ids[tv + "_mute"])
            try await homeAssistant.call("switch", "turn_on", mute)
            try await house.waitForCEC("the audio system muted") { $0.muted }
            try await homeAssistant.waitForState(mute, "on")
            try await homeAssistant.call("switch", "turn_off", mute)
            try await house.waitForCEC("the audio system not muted") { !$0.muted }
            try await homeAssistant.waitForState(mute, "off")

            sent = house.cec.transmittedCount
            try await homeAssistant.call("switch", "turn_off", power)
            let standby = await house.cec.waitForTransmitted(since: sent, timeout: TestTime.scaled(.seconds(10))) {
                $0.destination == 0 && $0.opcode == 0x36
            }
            #expect(standby != nil, "no Standby reached the TV")
            try await house.waitForCEC("the TV in standby") { !$0.tvPoweredOn }
            try await homeAssistant.waitForState(power, "off")
        }
    }

    @Test func homeAssistantFollowsTheHardware() async throws {
        try await HomeAssistantHouse.with { house in
            let homeAssistant = try house.homeAssistant
            let dimmer = Expected.zwave("2")
            let ids = try await homeAssistant.waitForEntities(
                [Expected.dimmerLight, dimmer + "_scene", Expected.zwave("3_1_power"), Expected.tvDevice + "_power"])
            let light = try #require(ids[Expected.dimmerLight])
            try await homeAssistant.waitForState(light, not: "unavailable")

            // S1 double click: full brightness, and the scene (14) as the event entity's event.
            #expect(house.stick.pressButton(node: 2, button: .s1, .double))
            try await homeAssistant.waitForState(light, "on", attributes: [("brightness", 255)])
            try await homeAssistant.waitForState(
                try #require(ids[dimmer + "_scene"]), attributes: [("event_type", "button_1_double_press")])
            // S1 click: off.
            #expect(house.stick.pressButton(node: 2, button: .s1, .single))
            try await homeAssistant.waitForState(light, "off")

            // A new load on socket 1 shows in its power sensor.
            let mark = await house.mark
            #expect(house.stick.setLoad(node: 3, endpoint: 1, watts: 42))
            let watts = try await house.watcher.waitForMessage(
                topic: "Thuis/device/living/receiver/power", from: mark, timeout: .seconds(15)
            ) { Double($0.text) == 42 }
            try await homeAssistant.waitForState(try #require(ids[Expected.zwave("3_1_power")]), watts.text)

            // The TV's own remote.
            let tv = try #require(ids[Expected.tvDevice + "_power"])
            house.cec.tvRemotePower(on: true)
            try await homeAssistant.waitForState(tv, "on")
            house.cec.tvRemotePower(on: false)
            try await homeAssistant.waitForState(tv, "off")
        }
    }

    @Test func renamingTheDimmerKeepsItsEntityAndMovesItsTopics() async throws {
        try await HomeAssistantHouse.with { house in
            let homeAssistant = try house.homeAssistant
            let light = try #require(try await homeAssistant.waitForEntities([Expected.dimmerLight]).values.first)
            try await homeAssistant.waitForState(light, not: "unavailable")
            let snapshot = try await homeAssistant.snapshot()
            let device = try #require(snapshot.device(identifier: Expected.zwave("2")))
            // Every entity of the dimmer's device, unique id → entity id.
            let before = Dictionary(
                uniqueKeysWithValues: snapshot.entities.filter { $0.deviceID == device.id }.map {
                    ($0.uniqueID, $0.entityID)
                })
            let entityCount = snapshot.entities.count
            let entityIDs = Set(snapshot.entities.map(\.entityID))

            try await house.restartBridge(dimmer: HomeAssistantHouse.renamedDimmer)
            try await homeAssistant.waitForState(
                light, not: "unavailable", attributes: [("friendly_name", "Study lamp")])
            let renamed = try await homeAssistant.snapshot()
            for (uniqueID, entityID) in before {
                #expect(renamed.entity(uniqueID)?.entityID == entityID, "\(uniqueID) changed its entity id")
            }
            #expect(renamed.entities.count == entityCount, "\(renamed.entities.map(\.entityID))")
            // (A WallMote's `event.hall_wallmote_button_2` was there before: no twin.)
            let twins = renamed.entities.map(\.entityID).filter { $0.hasSuffix("_2") && !entityIDs.contains($0) }
            #expect(twins.isEmpty, "a second entity: \(twins)")
            let renamedDevice = renamed.device(identifier: Expected.zwave("2"))
            #expect(renamedDevice?.id == device.id && renamedDevice?.name == "Study lamp")

            // The light commands the new topics.
            let mark = await house.mark
            let sent = try await house.dimmerCommands(dimmer: HomeAssistantHouse.renamedDimmer) {
                try await homeAssistant.call("light", "turn_on", light, [("brightness", 255)])
            }
            #expect(sent.published == ["99", "on"], "Home Assistant published \(sent.published)")
            let old = await house.messages(on: "Thuis/device/\(HomeAssistantHouse.dimmer)/set", from: mark)
            #expect(old.isEmpty, "Home Assistant still commands the old topic: \(old)")
            #expect(sent.levels == [99], "Switch Multilevel Sets: \(sent.levels)")
            try await homeAssistant.waitForState(light, "on", attributes: [("brightness", 255)])

            // And back: the same entity again, under its first name.
            try await house.restartBridge(dimmer: HomeAssistantHouse.dimmer)
            try await homeAssistant.waitForState(
                light, not: "unavailable", attributes: [("friendly_name", "Bedroom light")])
            let back = try await house.dimmerCommands { try await homeAssistant.call("light", "turn_off", light) }
            #expect(back.levels == [0], "Switch Multilevel Sets: \(back.levels)")
            try await homeAssistant.waitForState(light, "off")
            let after = try await homeAssistant.snapshot()
            #expect(after.entity(Expected.dimmerLight)?.entityID == light)
            #expect(after.entities.count == entityCount, "\(after.entities.map(\.entityID))")
        }
    }

    @Test func excludingANodeRemovesItFromHomeAssistant() async throws {
        try await HomeAssistantHouse.with { house in
            let homeAssistant = try house.homeAssistant
            let fan = try #require(try await homeAssistant.waitForEntities([Expected.fanSwitch]).values.first)
            let before = try await homeAssistant.snapshot()
            let entity = try #require(before.entity(Expected.fanSwitch))
            #expect(entity.domain == "switch" && entity.deviceClass == nil, "\(fan)")
            let device = try #require(before.device(id: entity.deviceID))
            #expect(device.identifiers == [Expected.fan.device] && device.name == "Hall fan")
            #expect(device.viaDeviceID == before.device(identifier: Expected.bridgeDevice)?.id)

            let mark = await house.mark
            let exclude = try InclusionHouse.cli(
                ["exclude", "--timeout", "30", "--config", house.config], directory: house.directory)
            defer { exclude.kill() }
            _ = try await house.watcher.waitForMessage(
                topic: "Thuis/bridge/\(HomeAssistantHouse.bridgeName)/event", from: mark, timeout: .seconds(15)
            ) { JSONMessage($0)?.type == "exclusion_waiting" }
            #expect(house.stick.pressNetworkButton(node: 4))
            #expect(await exclude.waitForExit(timeout: .seconds(30)) == .exited(0), "\(exclude.outputText)")
            #expect(exclude.outputText.contains("node 4 removed"), "\(exclude.outputText)")

            try await homeAssistant.waitForEntitiesGone([Expected.fanSwitch])
            try await homeAssistant.waitForDeviceGone(Expected.fan.device)
            let config =
                "homeassistant/switch/thuis_zwave_\(HomeAssistantHouse.home)/\(Expected.fanSwitch)/config"
            let cleared = await house.watcher.received.dropFirst(mark).filter { $0.topic == config }
            #expect(cleared.map(\.payload) == [[]], "on \(config): \(cleared.map(\.text))")
            let after = try await homeAssistant.snapshot()
            #expect(after.entities.count == before.entities.count - 1)
            #expect(after.devices.count == before.devices.count - 1)
        }
    }

    @Test func afterAHomeAssistantRestartEverythingIsBackWithItsState() async throws {
        try await HomeAssistantHouse.with { house in
            let before = try await house.homeAssistant.snapshot()
            await house.stopHomeAssistant()
            let mark = await house.mark
            try await house.startHomeAssistant()
            let homeAssistant = try house.homeAssistant

            // The bridge answers Home Assistant's birth by publishing its discovery again.
            let received = await house.watcher.received
            let birth = try #require(
                received.indices.first {
                    $0 >= mark && received[$0].topic == "homeassistant/status" && received[$0].text == "online"
                })
            let config = "homeassistant/light/thuis_zwave_\(HomeAssistantHouse.home)/\(Expected.dimmerLight)/config"
            _ = try await house.watcher.waitForMessage(topic: config, from: birth + 1, timeout: .seconds(15))

            // Every entity is back, available.
            let ids = try await homeAssistant.waitForEntities(before.entities.map(\.uniqueID))
            #expect(ids.count == before.entities.count)
            for entityID in ids.values { try await homeAssistant.waitForState(entityID, not: "unavailable") }
            let light = try #require(ids[Expected.dimmerLight])
            let level = Int(house.stick.level(node: 2) ?? 0)
            let state = try await homeAssistant.waitForState(light, level > 0 ? "on" : "off")
            // On: the level scaled to 0-255; off (level 0): no brightness at all.
            let brightness = state.attributes["brightness"]?.number
            #expect(brightness == (level > 0 ? (Double(level) * 255 / 99).rounded() : nil), "\(state)")
            let tvPower = try #require(ids[Expected.tvDevice + "_power"])
            try await homeAssistant.waitForState(tvPower, house.cec.state.tvPoweredOn ? "on" : "off")
            let socket = try #require(ids[Expected.zwave("3_4_switch")])
            try await homeAssistant.waitForState(
                socket, house.stick.switchState(node: 3, endpoint: 4) == true ? "on" : "off")
        }
    }
}

extension HomeAssistantHouse {
    /// What a Home Assistant action did to the dimmer: the payloads it published on the dimmer's `/set`, and the
    /// levels of the Sets the stick received.
    struct DimmerCommands {
        let published: [String]
        let levels: [UInt8]
    }

    /// Runs `action` and returns what reached the dimmer (at `dimmer`) once the bridge has dealt with all of it:
    /// a `/get` published after Home Assistant's commands waits in the dimmer's queue behind them, so when the
    /// bridge has executed that refresh (its debug log says so), every Set they caused has been sent and confirmed.
    func dimmerCommands(dimmer: String = dimmer, _ action: () async throws -> Void) async throws -> DimmerCommands {
        let frames = stick.hostFrameCount
        let mark = await self.mark
        let set = "Thuis/device/\(dimmer)/set"
        try await action()
        // The service call returns once Home Assistant has published; wait until they are here too.
        try await MQTTTestClient.poll(timeout: .seconds(10), "Home Assistant's commands on \(set)") {
            !(await messages(on: set, from: mark)).isEmpty
        }
        let bridge = self.bridge
        let lines = bridge.output.count
        try await watcher.publish(topic: "Thuis/device/\(dimmer)/get", text: "")
        do {
            try await MQTTTestClient.poll(timeout: .seconds(15), "the bridge executing the /get of \(dimmer)") {
                bridge.output.dropFirst(lines).contains {
                    $0.text.hasSuffix("executed") && $0.text.contains("command=refresh device=\(dimmer) ")
                }
            }
        } catch {
            throw TestSupportError(
                "\(error); the stick received since the action: \(stick.commands(to: 2, since: frames))")
        }
        return DimmerCommands(
            published: await messages(on: set, from: mark),
            levels: stick.sets(to: 2, since: frames).compactMap(\.setValue))
    }

    /// Waits until the CEC emulator's state satisfies `condition`.
    func waitForCEC(_ what: String, _ condition: @escaping @Sendable (CECEmulatorState) -> Bool) async throws {
        try await MQTTTestClient.poll(timeout: .seconds(15), what) { condition(cec.state) }
    }
}

extension ZWaveStickEmulator {
    /// A command the stick received for a node, without its Multi Channel encapsulation.
    struct ReceivedCommand: Sendable, CustomStringConvertible {
        let index: Int
        /// The Multi Channel endpoint it was sent to, 0 when not encapsulated.
        let endpoint: UInt8
        /// Command class first.
        let bytes: [UInt8]
        var description: String { "#\(index) endpoint \(endpoint): " + bytes.map { hex($0) }.joined(separator: " ") }

        /// A Switch Multilevel, Switch Binary or Basic Set: its value.
        var setValue: UInt8? {
            bytes.count >= 3 && [0x26, 0x25, 0x20].contains(bytes[0]) && bytes[1] == 0x01 ? bytes[2] : nil
        }

        private func hex(_ byte: UInt8) -> String { (byte < 16 ? "0" : "") + String(byte, radix: 16) }
    }

    /// The commands sent to `node` since host frame `index`.
    func commands(to node: UInt8, since index: Int) -> [ReceivedCommand] {
        receivedHostFrames.filter { $0.index >= index && $0.destinationNode == node }.compactMap { event in
            guard let command = event.command else { return nil }
            if command.starts(with: [0x60, 0x0D]), command.count >= 5 {
                return ReceivedCommand(index: event.index, endpoint: command[3], bytes: Array(command.dropFirst(4)))
            }
            return ReceivedCommand(index: event.index, endpoint: 0, bytes: command)
        }
    }

    /// The Sets (Switch Multilevel, Switch Binary, Basic) sent to `node` since host frame `index`.
    func sets(to node: UInt8, since index: Int) -> [ReceivedCommand] {
        commands(to: node, since: index).filter { $0.setValue != nil }
    }
}
