import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing
import ZWaveEmulator

/// Sensor accessories as a real HomeKit controller sees them: aiohomekit pairs with the real `thuis-bridge run` on
/// the emulated `sensors` network (MultiSensor 6 node 2, door sensor node 3, both sleeping; roller shutter node 4;
/// radiator thermostat node 5; door lock node 7; real libopenzwave, real mosquitto, the real avahi-daemon), lists
/// each sensor's service, reads the readings, receives an event when the emulated sensor senses something, moves the
/// shutter (Window Covering), locks and unlocks the lock (Lock Mechanism), sets the thermostat's temperature and mode,
/// and finds the same accessories after a start without OpenZWave's cache while the sensors sleep.
@Suite(.endToEnd) struct HomeKitSensorEndToEndTests {
    /// HAP types: Temperature, Humidity, Light, Motion, Contact Sensor, Battery Service, and their characteristics.
    static let temperatureSensor = "8A"
    static let humiditySensor = "82"
    static let lightSensor = "84"
    static let motionSensor = "85"
    static let contactSensor = "80"
    static let batteryService = "96"
    static let currentTemperature = "11"
    static let currentHumidity = "10"
    static let ambientLight = "6B"
    static let motionDetected = "22"
    static let contactState = "6A"
    static let statusTampered = "7A"
    static let batteryLevel = "68"
    static let lowBattery = "79"
    static let windowCovering = "8C"
    static let currentPosition = "6D"
    static let targetPosition = "7C"
    static let positionState = "72"
    static let holdPosition = "6F"
    static let lockMechanism = "45"
    static let lockCurrentState = "1D"
    static let lockTargetState = "1E"

    /// Thermostat: CurrentHeatingCoolingState, TargetHeatingCoolingState, TargetTemperature, TemperatureDisplayUnits.
    static let thermostat = "4A"
    static let currentHeatingCooling = "F"
    static let targetHeatingCooling = "33"
    static let targetTemperature = "35"
    static let displayUnits = "36"

    static let serviceLabel = "CC"
    static let programmableSwitch = "89"
    static let switchEvent = "73"
    static let serviceLabelIndex = "CB"

    static let zwave = ConfigFixture.ZWave(devices: [
        .init(node: 2, room: "hall", name: "motion"), .init(node: 3, room: "hall", name: "door"),
        .init(node: 4, room: "living", name: "shutter"), .init(node: 5, room: "bedroom", name: "radiator"),
        .init(node: 6, room: "hall", name: "wallmote"), .init(node: 7, room: "hall", name: "lock"),
    ])

    @Test(.aiohomekit) func aiohomekitListsReadsAndFollowsTheSensors() async throws {
        try await HomeKitController.prepare()
        let port = try FreePort.next()
        try await ZWaveHouse.with(
            name: "homekit-sensors", network: .sensors, zwave: Self.zwave,
            appending: HomeKitEndToEndTests.homeKitLines(port: port), waking: [2, 3, 6]
        ) { house in
            // Every sensor of both nodes is in the inventory, and both read, before the controller lists them.
            _ = try await house.watcher.waitForMessage(
                topic: "Thuis/bridge/homekit-sensors/devices", timeout: .seconds(90)
            ) {
                let entries = Inventory($0)?.entries ?? []
                let motion = entries.first { $0["name"] == "motion" }?["sensors"]
                let door = entries.first { $0["name"] == "door" }?["sensors"]
                let wallmote = entries.first { $0["name"] == "wallmote" }
                return wallmote?["buttons"]?["4"] != nil && wallmote?["sensors"]?["battery"] != nil
                    && motion?["luminance"] != nil && motion?["motion"] != nil && motion?["tamper"] != nil
                    && motion?["battery"] != nil && door?["contact"] != nil && door?["tamper"] != nil
                    && door?["battery"] != nil
                    && entries.contains { $0["name"] == "radiator" && $0["setpoint"]?["max"] == .double(28) }
            }
            for (device, suffix, text) in [
                ("hall/motion", "/temperature", "21.5"), ("hall/motion", "/luminance", "120"),
                ("hall/motion", "/battery", "90"), ("hall/door", "/battery", "80"), ("living/shutter", "", "100"),
                ("living/shutter", "/movement", "stopped"), ("hall/lock", "", "locked"),
                ("bedroom/radiator", "/setpoint", "20.0"), ("bedroom/radiator", "/mode", "heat"),
                ("bedroom/radiator", "/temperature", "19.50"),
            ] {
                try await house.waitFor(device, suffix, text, timeout: .seconds(30))
            }
            try await HomeKitController.with(port: port) { controller, _ in
                try await Self.session(controller, house: house)
            }
        }
    }

    static func session(_ controller: HomeKitController, house: ZWaveHouse) async throws {
        try await controller.send(.object([("cmd", "pair"), ("pin", .string(HomeKitEndToEndTests.setupCode))]))
        let database = AccessoryDatabase(try await controller.send(.object([("cmd", "accessories")])))
        // The bridge, the two sensors, the shutter, the lock, the thermostat and the WallMote.
        #expect(database.accessories.count == 7, "accessories: \(database.accessories.count)")
        let motion = try #require(database.accessories.first { database.name(ofAccessory: $0) == "hall motion" })
        let door = try #require(database.accessories.first { database.name(ofAccessory: $0) == "hall door" })
        // The MultiSensor: temperature, humidity, light, motion and battery; its ultraviolet has no HomeKit service.
        #expect(
            Self.serviceTypes(motion)
                == ["3E", temperatureSensor, humiditySensor, lightSensor, motionSensor, batteryService],
            "\(Self.serviceTypes(motion))")
        #expect(Self.serviceTypes(door) == ["3E", temperatureSensor, contactSensor, batteryService])

        func id(_ service: String, _ characteristic: String, _ name: String) throws -> String {
            try #require(database.id(service: service, characteristic: characteristic, named: name))
        }
        let temperature = try id(temperatureSensor, currentTemperature, "hall motion")
        let humidity = try id(humiditySensor, currentHumidity, "hall motion")
        let light = try id(lightSensor, ambientLight, "hall motion")
        let moving = try id(motionSensor, motionDetected, "hall motion")
        let battery = try id(batteryService, batteryLevel, "hall motion")
        let low = try id(batteryService, lowBattery, "hall motion")
        let contact = try id(contactSensor, contactState, "hall door")
        let tampered = try id(contactSensor, statusTampered, "hall door")
        let doorTemperature = try id(temperatureSensor, currentTemperature, "hall door")

        let ids = [temperature, humidity, light, moving, battery, low, contact, tampered, doorTemperature]
        let read = try await controller.send(.object([("cmd", "get"), ("ids", .array(ids.map { .string($0) }))]))
        func value(_ id: String) -> JSONValue? { read["values"]?[id]?["value"] }
        #expect(value(temperature) == .double(21.5), "read: \(read.serialized)")
        #expect(value(humidity) == .double(45))
        #expect(value(light) == .double(120))
        #expect(value(battery) == .int(90))
        #expect(value(low) == .int(0))
        #expect(value(doorTemperature) == .double(19))
        #expect(value(contact) == .int(0) && value(tampered) == .int(0))
        try await Self.pressWallMote(controller, database, house: house)

        let subscribed = try await controller.send(
            .object([
                ("cmd", "subscribe"),
                ("ids", .array([temperature, moving, contact, battery, low].map { .string($0) })),
            ]))
        #expect(subscribed["statuses"] == .object([]), "subscribe: \(subscribed.serialized)")
        var events = controller.events.count
        #expect(house.stick.setMotion(node: 2, true))
        _ = try await controller.waitForEvent(moving, from: events) { $0 == .bool(true) }
        events = controller.events.count
        #expect(house.stick.setDoor(node: 3, open: true))
        _ = try await controller.waitForEvent(contact, from: events) { $0 == .int(1) }
        events = controller.events.count
        #expect(house.stick.setSensor(node: 2, type: 1, value: 23.5))
        _ = try await controller.waitForEvent(temperature, from: events) { $0 == .double(23.5) }
        events = controller.events.count
        #expect(house.stick.setBattery(node: 2, level: 10))
        _ = try await controller.waitForEvent(battery, from: events) { $0 == .int(10) }
        _ = try await controller.waitForEvent(low, from: events) { $0 == .int(1) }

        try await coverAndLock(controller, database, house: house)
        try await followThermostat(controller, database, house: house)

        // A start without OpenZWave's cache while the sensors sleep (their interviews cannot tell what they are):
        // the pairing file's memory serves the same accessories with the same services and ids.
        house.stopWaking()
        // (How it stops is not this test's matter: the cache it writes is removed.)
        let stopped = await house.stopBridge()
        if stopped != .exited(0) {
            let output = house.bridge.outputText.suffix(8_000)
            print("the bridge did not stop cleanly: \(String(describing: stopped)):\n\(output)")
        }
        let state = house.directory.file("state")
        for file in try FileManager.default.contentsOfDirectory(atPath: state) where file.hasPrefix("ozwcache_") {
            try FileManager.default.removeItem(atPath: "\(state)/\(file)")
        }
        let mark = await house.mark
        try house.startBridge()
        try await house.watcher.waitForMessage(topic: "Thuis/bridge/homekit-sensors/state", text: "online", from: mark)
        // Asked until the controller reconnected and the bridge has its devices (the WallMote with its buttons from
        // the pairing file's memory).
        var again: AccessoryDatabase?
        try await MQTTTestClient.poll(timeout: .seconds(60), "the six node accessories after the restart") {
            again = (try? await controller.send(.object([("cmd", "accessories")]))).map(AccessoryDatabase.init)
            return again?.accessories.count == 7
        }
        let restarted = try #require(again)
        #expect(Self.structure(restarted) == Self.structure(database), "\(Self.structure(restarted))")
        try await controller.send(.object([("cmd", "remove_pairing")]))
    }

    /// The shutter's Window Covering (TargetPosition moves the emulated node; PositionState follows its movement;
    /// HoldPosition stops it) and the lock's Lock Mechanism (LockTargetState locks and unlocks it; a jam and the knob
    /// are events of LockCurrentState).
    static func coverAndLock(_ controller: HomeKitController, _ database: AccessoryDatabase, house: ZWaveHouse)
        async throws
    {
        func id(_ service: String, _ characteristic: String, _ name: String) throws -> String {
            try #require(database.id(service: service, characteristic: characteristic, named: name))
        }
        let current = try id(windowCovering, currentPosition, "living shutter")
        let target = try id(windowCovering, targetPosition, "living shutter")
        let moving = try id(windowCovering, positionState, "living shutter")
        let hold = try id(windowCovering, holdPosition, "living shutter")
        let lockState = try id(lockMechanism, lockCurrentState, "hall lock")
        let lockTarget = try id(lockMechanism, lockTargetState, "hall lock")
        let ids = [current, target, moving, lockState, lockTarget]
        let read = try await controller.send(.object([("cmd", "get"), ("ids", .array(ids.map { .string($0) }))]))
        func value(_ id: String) -> JSONValue? { read["values"]?[id]?["value"] }
        #expect(value(current) == .int(100) && value(target) == .int(100), "read: \(read.serialized)")
        #expect(value(moving) == .int(2) && value(lockState) == .int(1) && value(lockTarget) == .int(1))
        let subscribed = try await controller.send(
            .object([("cmd", "subscribe"), ("ids", .array(ids.map { .string($0) }))]))
        #expect(subscribed["statuses"] == .object([]), "subscribe: \(subscribed.serialized)")
        func put(_ id: String, _ value: JSONValue) async throws {
            let put = try await controller.send(.object([("cmd", "put"), ("values", .object([(id, value)]))]))
            #expect(put["statuses"] == .object([]), "put: \(put.serialized)")
        }

        // TargetPosition 80: closing (0), then at 80 and stopped (2).
        var events = controller.events.count
        try await put(target, .int(80))
        _ = try await controller.waitForEvent(moving, from: events) { $0 == .int(0) }
        _ = try await controller.waitForEvent(current, from: events, timeout: .seconds(60)) { $0 == .int(80) }
        _ = try await controller.waitForEvent(moving, from: events) { $0 == .int(2) }
        #expect(house.stick.level(node: 4) == 80)
        // Closing all the way, held on the way: it stands between.
        events = controller.events.count
        try await put(target, .int(0))
        _ = try await controller.waitForEvent(moving, from: events) { $0 == .int(0) }
        events = controller.events.count
        try await put(hold, .bool(true))
        _ = try await controller.waitForEvent(moving, from: events) { $0 == .int(2) }
        let held = try #require(house.stick.level(node: 4))
        #expect(held > 0 && held < 80, "\(held)")

        // Unsecured, then secured: Door Lock Operation Sets to the FLiRS lock, each confirmed by an event.
        for (mode, state) in [(UInt8(0x00), 0), (0xFF, 1)] {
            events = controller.events.count
            try await put(lockTarget, .int(state))
            _ = try await controller.waitForEvent(lockState, from: events) { $0 == .int(state) }
            #expect(house.stick.level(node: 7) == mode)
        }
        events = controller.events.count
        #expect(house.stick.jamLock(node: 7))
        _ = try await controller.waitForEvent(lockState, from: events) { $0 == .int(2) }
        events = controller.events.count
        #expect(house.stick.setLocked(node: 7, false))
        _ = try await controller.waitForEvent(lockState, from: events) { $0 == .int(0) }
        _ = try await controller.waitForEvent(lockTarget, from: events) { $0 == .int(0) }
    }

    /// The radiator thermostat: a Thermostat (heat only: off and heat) with its temperature, setpoint and the device's
    /// range and step, and its battery; a TargetTemperature write reaches the emulated Spirit as its setpoint, a
    /// TargetHeatingCoolingState write as its mode, and their reports come back as events.
    static func followThermostat(_ controller: HomeKitController, _ database: AccessoryDatabase, house: ZWaveHouse)
        async throws
    {
        let radiator = try #require(database.accessories.first { database.name(ofAccessory: $0) == "bedroom radiator" })
        #expect(Self.serviceTypes(radiator) == ["3E", thermostat, batteryService], "\(Self.serviceTypes(radiator))")
        func id(_ characteristic: String) throws -> String {
            try #require(database.id(service: thermostat, characteristic: characteristic, named: "bedroom radiator"))
        }
        let (current, target, temperature, setpoint, units) = (
            try id(currentHeatingCooling), try id(targetHeatingCooling), try id(currentTemperature),
            try id(targetTemperature), try id(displayUnits)
        )
        // The target temperature's metadata: the Spirit's 8-28 °C in 0.5 steps; the target state off and heat only.
        let services = radiator["services"]?.items ?? []
        let characteristics = services.flatMap { $0["characteristics"]?.items ?? [] }
        let targetMetadata = characteristics.first { AccessoryDatabase.shortType($0["type"]) == targetTemperature }
        #expect(targetMetadata?["minValue"] == .double(8) && targetMetadata?["maxValue"] == .double(28))
        #expect(targetMetadata?["minStep"] == .double(0.5), "\(String(describing: targetMetadata))")
        let stateMetadata = characteristics.first { AccessoryDatabase.shortType($0["type"]) == targetHeatingCooling }
        #expect(stateMetadata?["valid-values"] == [0, 1], "\(String(describing: stateMetadata))")

        let ids = [current, target, temperature, setpoint, units]
        let read = try await controller.send(.object([("cmd", "get"), ("ids", .array(ids.map { .string($0) }))]))
        func value(_ id: String) -> JSONValue? { read["values"]?[id]?["value"] }
        #expect(value(current) == .int(1) && value(target) == .int(1), "read: \(read.serialized)")
        #expect(value(temperature) == .double(19.5) && value(setpoint) == .double(20) && value(units) == .int(0))

        let subscribed = try await controller.send(
            .object([("cmd", "subscribe"), ("ids", .array([target, setpoint, current].map { .string($0) }))]))
        #expect(subscribed["statuses"] == .object([]), "subscribe: \(subscribed.serialized)")
        var events = controller.events.count
        let put = try await controller.send(
            .object([("cmd", "put"), ("values", .object([(setpoint, .double(22.5))]))]))
        #expect(put["statuses"] == .object([]), "put: \(put.serialized)")
        _ = try await controller.waitForEvent(setpoint, from: events) { $0 == .double(22.5) }
        #expect(house.stick.thermostat(node: 5)?.setpoint == 22.5)
        events = controller.events.count
        _ = try await controller.send(.object([("cmd", "put"), ("values", .object([(target, .int(0))]))]))
        _ = try await controller.waitForEvent(target, from: events) { $0 == .int(0) }
        _ = try await controller.waitForEvent(current, from: events) { $0 == .int(0) }
        #expect(house.stick.thermostat(node: 5)?.mode == 0)
        // Out of the device's range: refused, nothing sent.
        let refused = try await controller.send(
            .object([("cmd", "put"), ("values", .object([(setpoint, .double(30))]))]))
        #expect(refused["statuses"] != .object([]), "put: \(refused.serialized)")
        #expect(house.stick.thermostat(node: 5)?.setpoint == 22.5)
    }

    /// The WallMote Quad: a Battery Service, a Service Label (arabic numerals) and a Stateless Programmable Switch per
    /// button, labelled 1-4; the switch event reads null, and a press, a double press and a hold on the emulator are
    /// events single (0), double (1) and long (2); a triple press and a release send none.
    static func pressWallMote(
        _ controller: HomeKitController, _ database: AccessoryDatabase, house: ZWaveHouse
    ) async throws {
        let wallmote = try #require(database.accessories.first { database.name(ofAccessory: $0) == "hall wallmote" })
        let switches = Array(repeating: programmableSwitch, count: 4)
        #expect(Self.serviceTypes(wallmote) == ["3E", batteryService, serviceLabel] + switches)
        func button(_ label: Int) throws -> String {
            try #require(
                database.id(
                    service: programmableSwitch, characteristic: switchEvent, labelType: serviceLabelIndex,
                    label: label))
        }
        let first = try button(1)
        let third = try button(3)
        let read = try await controller.send(.object([("cmd", "get"), ("ids", [.string(first)])]))
        #expect(read["values"]?[first]?["value"] == .null, "read: \(read.serialized)")
        let subscribed = try await controller.send(
            .object([("cmd", "subscribe"), ("ids", [.string(first), .string(third)])]))
        #expect(subscribed["statuses"] == .object([]), "subscribe: \(subscribed.serialized)")
        for (action, event) in [(SceneAction.pressed(1), 0), (.pressed(2), 1), (.held, 2)] {
            let events = controller.events.count
            #expect(house.stick.pressSceneButton(node: 6, button: 3, action))
            _ = try await controller.waitForEvent(third, from: events) { $0 == .int(event) }
        }
        // Released and pressed three times: no event; then a press on button 1 is the next event there is.
        let events = controller.events.count
        #expect(house.stick.pressSceneButton(node: 6, button: 3, .released))
        #expect(house.stick.pressSceneButton(node: 6, button: 3, .pressed(3)))
        #expect(house.stick.pressSceneButton(node: 6, button: 1, .pressed(1)))
        _ = try await controller.waitForEvent(first, from: events) { $0 == .int(0) }
        let sent = controller.events.dropFirst(events).filter { $0.0 == third }
        #expect(sent.isEmpty, "\(sent)")
    }

    /// Each accessory's aid with its services' types and instance ids and their characteristics' ids
    /// (`2: 3E@1(2,3,4,5,6,7) 8A@200(201,202) ...`).
    static func structure(_ database: AccessoryDatabase) -> [String] {
        func id(_ value: JSONValue?) -> String { if case .int(let id)? = value { "\(id)" } else { "?" } }
        func list(_ value: JSONValue?) -> [JSONValue] { if case .array(let list)? = value { list } else { [] } }
        return database.accessories.map { accessory in
            let services = list(accessory["services"]).map { service in
                let characteristics = list(service["characteristics"]).map { id($0["iid"]) }
                let type = AccessoryDatabase.shortType(service["type"]) ?? "?"
                return "\(type)@\(id(service["iid"]))(\(characteristics.joined(separator: ",")))"
            }
            return "\(id(accessory["aid"])): \(services.joined(separator: " "))"
        }
    }

    /// An accessory's service types, in order.
    static func serviceTypes(_ accessory: JSONValue) -> [String] {
        guard case .array(let services)? = accessory["services"] else { return [] }
        return services.compactMap { AccessoryDatabase.shortType($0["type"]) }
    }
}
