import BridgeCore
import HomeKit
import HomeKitBridge
import Synchronization
import TestSupport
import Testing

/// Sensor devices (issue 44): one accessory with a service per sensor HomeKit knows, StatusTampered where the device
/// has a tamper switch, a Battery Service, readings that follow what the bridge publishes, and services that stay
/// across a restart before the interview.
extension HomeKitAccessoriesTests {
    static let multiSensor = DeviceDescriptor(
        address: DeviceAddress(room: "hall", name: "motion"), kind: .sensor, source: .zwave(node: 4, instance: nil),
        sensors: [
            .temperature: "°C", .humidity: "%", .luminance: "lx", .ultraviolet: "UV index", .motion: "", .tamper: "",
            .battery: "%",
        ])
    static let door = DeviceDescriptor(
        address: DeviceAddress(room: "hall", name: "door"), kind: .sensor, source: .zwave(node: 5, instance: nil),
        sensors: [.contact: "", .water: "", .smoke: "", .battery: "%"])

    func reading(_ fixture: Fixture, _ device: DeviceDescriptor, _ sensor: Sensor, _ reading: SensorReading) async {
        await fixture.bridge.apply(.update(device.source, .sensor(sensor, reading)))
    }

    func measurement(_ value: Double, precision: Int = 1) -> SensorReading {
        .measurement(DeviceState.Measurement(value: value, precision: precision))
    }

    /// The value HomeKit reads of `iid` of `device`'s accessory, nil when the read fails.
    func read(_ fixture: Fixture, _ device: DeviceDescriptor, _ iid: Int) async -> JSONValue? {
        let id = CharacteristicID(aid: fixture.aid(device), iid: iid)
        return try? await fixture.model.read([id])[id]?.get()
    }

    @Test func aMultiSensorIsOneAccessoryWithAServicePerSensorAndABatteryService() async throws {
        try await withBridge(devices: [Self.multiSensor, Self.door]) { fixture in
            let sensor = try accessory(await fixture.model.database(), fixture.aid(Self.multiSensor))
            // Temperature, Humidity, Light and Motion Sensor and the Battery Service; no service for ultraviolet.
            #expect(types(sensor) == ["3E", "8A", "82", "84", "85", "96"])
            #expect(
                sensor.compactMap { if case .int(let iid)? = $0["iid"] { iid } else { nil } } == [
                    1, 200, 210, 220, 230, 270,
                ])
            #expect(service(sensor, iid: 230)?["primary"] == true, "a MultiSensor is mostly a motion sensor")
            #expect(service(sensor, iid: 200)?["primary"] == false)
            let temperature = characteristic(service(sensor, iid: 200), iid: 201)
            #expect(
                temperature?["type"] == "11" && temperature?["format"] == "float" && temperature?["unit"] == "celsius")
            #expect(temperature?["perms"] == ["pr", "ev"])
            #expect(characteristic(service(sensor, iid: 210), iid: 211)?["type"] == "10")
            let light = characteristic(service(sensor, iid: 220), iid: 221)
            #expect(light?["type"] == "6B" && light?["minValue"] == .double(0.0001) && light?["unit"] == "lux")
            #expect(characteristic(service(sensor, iid: 230), iid: 231)?["type"] == "22")
            // The tamper switch is every sensor service's StatusTampered.
            for iid in [200, 210, 220, 230] {
                #expect(characteristic(service(sensor, iid: iid), iid: iid + 2)?["type"] == "7A", "service \(iid)")
            }
            let battery = service(sensor, iid: 270)
            #expect(characteristic(battery, iid: 271)?["type"] == "68")
            #expect(characteristic(battery, iid: 272)?["type"] == "79")
            #expect(characteristic(battery, iid: 273)?["type"] == "8F")
            #expect(characteristic(battery, iid: 273)?["value"] == 2, "not chargeable")

            let door = try accessory(await fixture.model.database(), fixture.aid(Self.door))
            // Contact, Leak and Smoke Sensor: no tamper switch, no StatusTampered.
            #expect(types(door) == ["3E", "80", "83", "87", "96"])
            #expect(service(door, iid: 240)?["primary"] == true)
            #expect(characteristic(service(door, iid: 240), iid: 241)?["valid-values"] == [0, 1])
            #expect(characteristic(service(door, iid: 240), iid: 242) == nil)
            #expect(characteristic(service(door, iid: 250), iid: 251)?["type"] == "70")
            #expect(characteristic(service(door, iid: 260), iid: 261)?["type"] == "76")
        }
    }

    @Test func readingsAreTheCharacteristicsValues() async throws {
        try await withBridge(devices: [Self.multiSensor, Self.door]) { fixture in
            let sensor = Self.multiSensor
            // Before a report: nothing sensed (no motion, the door closed).
            #expect(await read(fixture, sensor, 231) == false)
            #expect(await read(fixture, Self.door, 241) == 0)
            await reading(fixture, sensor, .temperature, measurement(21.5))
            await reading(fixture, sensor, .humidity, measurement(45, precision: 0))
            await reading(fixture, sensor, .luminance, measurement(0, precision: 0))
            await reading(fixture, sensor, .motion, .active(true))
            await reading(fixture, sensor, .battery, measurement(90, precision: 0))
            #expect(await read(fixture, sensor, 201) == .double(21.5))
            #expect(await read(fixture, sensor, 211) == .double(45))
            #expect(await read(fixture, sensor, 221) == .double(0.0001), "HomeKit's darkest is 0.0001 lx")
            #expect(await read(fixture, sensor, 231) == true)
            #expect(await read(fixture, sensor, 232) == 0)
            #expect(await read(fixture, sensor, 271) == 90)
            #expect(await read(fixture, sensor, 272) == 0)

            await reading(fixture, sensor, .tamper, .active(true))
            #expect(await read(fixture, sensor, 202) == 1)
            #expect(await read(fixture, sensor, 232) == 1)
            // Low battery below 20 %.
            await reading(fixture, sensor, .battery, measurement(20, precision: 0))
            #expect(await read(fixture, sensor, 272) == 0)
            await reading(fixture, sensor, .battery, measurement(19, precision: 0))
            #expect(await read(fixture, sensor, 271) == 19)
            #expect(await read(fixture, sensor, 272) == 1)

            await reading(fixture, Self.door, .contact, .active(true))
            await reading(fixture, Self.door, .water, .active(true))
            #expect(await read(fixture, Self.door, 241) == 1, "open: contact not detected")
            #expect(await read(fixture, Self.door, 251) == 1)
            #expect(await read(fixture, Self.door, 261) == 0)
        }
    }

    /// A reading that changes is a value change for the subscribed controllers; a write to a sensor is refused.
    @Test func aChangedReadingIsAnEventAndSensorsAreReadOnly() async throws {
        try await withBridge(devices: [Self.multiSensor, Self.door]) { fixture in
            let contact = CharacteristicID(aid: fixture.aid(Self.door), iid: 241)
            let temperature = CharacteristicID(aid: fixture.aid(Self.multiSensor), iid: 201)
            #expect(await fixture.model.eventStatus(contact) == .success)
            await reading(fixture, Self.door, .contact, .active(true))
            try await waitForChange(fixture) { Self.values($0)[contact] == 1 }
            await reading(fixture, Self.door, .contact, .active(false))
            try await waitForChange(fixture) { Self.values($0)[contact] == 0 }
            await reading(fixture, Self.multiSensor, .temperature, measurement(22.5))
            try await waitForChange(fixture) { Self.values($0)[temperature] == .double(22.5) }
            let statuses = await fixture.model.write([(contact, .int(0))])
            #expect(statuses[contact] == .readOnly)
        }
    }

    /// A device of another kind keeps its primary service; its sensors are services beside it.
    @Test func aSocketsTemperatureIsATemperatureSensorBesideItsOutlet() async throws {
        let socket = DeviceDescriptor(
            address: Self.socket.address, kind: .socket, source: Self.socket.source, metered: true,
            sensors: [.temperature: "°C"])
        try await withBridge(devices: [socket]) { fixture in
            let services = try accessory(await fixture.model.database(), fixture.aid(socket))
            #expect(types(services) == ["3E", "47", "8A"])
            #expect(service(services, iid: 10)?["primary"] == true)
            #expect(service(services, iid: 200)?["primary"] == false)
            await reading(fixture, socket, .temperature, measurement(31.5))
            #expect(await read(fixture, socket, 201) == .double(31.5))
        }
    }

    @Test func aFahrenheitTemperatureIsShownInCelsius() async throws {
        let outside = DeviceDescriptor(
            address: DeviceAddress(room: "garden", name: "thermometer"), kind: .sensor,
            source: .zwave(node: 6, instance: nil), sensors: [.temperature: "°F"])
        try await withBridge(devices: [outside]) { fixture in
            await reading(fixture, outside, .temperature, measurement(70.5))
            #expect(await read(fixture, outside, 201) == .double(21.4))
        }
    }

    /// A sensor's services are remembered with its kind: a start before the interview (a sleeping node OpenZWave
    /// has no cache of) serves them, and the interview finding the sensors one by one does not take any away.
    @Test func aSleepingSensorsServicesStayAcrossARestartAndItsInterview() async throws {
        let allocator = Allocator()
        let memory = Memory()
        let before = try await firstStart(Self.multiSensor, allocator: allocator, memory: memory)
        #expect(before.count == 2 && before.last?.hasSuffix("3E 8A 82 84 85 96") == true, "\(before)")
        let remembered = memory.kinds.withLock { $0["zwave:4"] }
        #expect(
            remembered
                == "sensor+sensors:battery=%,humidity=%,luminance=lx,motion,tamper,temperature=°C,ultraviolet=UV index")

        let guessed = DeviceDescriptor(
            address: Self.multiSensor.address, kind: .binarySwitch, source: Self.multiSensor.source, kindKnown: false)
        try await withBridge(devices: [guessed], allocator: allocator, memory: memory.memory) { fixture in
            #expect(structure(await fixture.model.database()) == before, "the services changed before the interview")
            await fixture.bridge.apply(.identified(Self.multiSensor.source, kind: .sensor, metered: false))
            await fixture.bridge.apply(.sensorsFound(Self.multiSensor.source, [.battery: "%"]))
            #expect(structure(await fixture.model.database()) == before, "a service left while the interview went on")
            #expect(await fixture.changes.structureChanges == 0)
            // Once the interview is complete, the device has the sensors it reported, no more.
            await fixture.bridge.apply(.details(Self.multiSensor.source, [("interview_stage", "Complete")]))
            try await waitForChange(fixture) { if case .structure = $0 { true } else { false } }
            #expect(structure(await fixture.model.database()).last?.hasSuffix(": 3E 96") == true)
            #expect(memory.kinds.withLock { $0["zwave:4"] } == "sensor+sensors:battery=%,battery_low")
        }
    }

    /// The accessories' structure at a first start with `device` (whose kind the pairing file then remembers).
    func firstStart(_ device: DeviceDescriptor, allocator: Allocator, memory: Memory) async throws -> [String] {
        let known = Mutex<[String]>([])
        try await withBridge(devices: [device], allocator: allocator, memory: memory.memory) { fixture in
            let structure = structure(await fixture.model.database())
            known.withLock { $0 = structure }
        }
        return known.withLock { $0 }
    }
}
