import BridgeCore
import Testing

/// The generic Z-Wave sensor mapping: which sensor (and unit) an OpenZWave value is, and what a report of it reads.
@Suite struct ZWaveSensorMappingTests {
    typealias Mapping = ZWaveSensorMapping

    func value(
        _ commandClass: UInt8, _ index: UInt16, label: String = "", units: String = "", _ reading: Mapping.Reading?
    ) -> Mapping.Value {
        Mapping.Value(commandClass: commandClass, index: index, label: label, units: units, reading: reading)
    }

    func measurement(_ value: Double, _ precision: Int) -> SensorReading {
        .measurement(DeviceState.Measurement(value: value, precision: precision))
    }

    /// Sensor Multilevel by type (OpenZWave's index), with the unit as published; power (type 4) is no sensor.
    @Test func multilevelSensorsByTypeWithTheirUnits() {
        let cases: [(UInt16, String, Sensor, String)] = [
            (1, "C", .temperature, "°C"), (1, "F", .temperature, "°F"), (5, "%", .humidity, "%"),
            (3, "Lux", .luminance, "lx"), (3, "%", .luminance, "%"), (27, "UV", .ultraviolet, "UV index"),
            (17, "Ppm", .co2, "ppm"), (8, "kPa", .pressure, "kPa"), (9, "inHg", .pressure, "inHg"),
            (5, "g/m3", .humidity, "g/m³"),
        ]
        for (index, units, sensor, unit) in cases {
            #expect(Mapping.sensors(of: value(0x31, index, units: units, .decimal(1, precision: 1))) == [sensor: unit])
        }
        #expect(Mapping.sensors(of: value(0x31, 4, units: "W", .decimal(5, precision: 1))).isEmpty)
        #expect(Mapping.sensors(of: value(0x31, 2, units: "", .decimal(5, precision: 1))).isEmpty)
        let readings = Mapping.readings(of: value(0x31, 1, units: "C", .decimal(21.5, precision: 1)))
        #expect(readings.map { $0.0 } == [.temperature] && readings.map { $0.1 } == [measurement(21.5, 1)])
    }

    /// Meters: gas, water, heating and cooling are sensors (with OpenZWave 1.6's units: `m3`, `ft3`, `gal`, `kWh`);
    /// electric ones (the device's /power and /energy) are not.
    @Test func onlyNonElectricMetersAreSensors() {
        let cases: [(UInt16, String, Sensor, String)] = [
            (16, "m3", .gasVolume, "m³"), (17, "ft3", .gasVolume, "ft³"), (32, "m3", .waterVolume, "m³"),
            (33, "ft3", .waterVolume, "ft³"), (34, "gal", .waterVolume, "gal"),
        ]
        for (index, units, sensor, unit) in cases {
            #expect(Mapping.sensors(of: value(0x32, index, units: units, .decimal(1, precision: 2))) == [sensor: unit])
        }
        #expect(
            Mapping.sensors(of: value(0x32, 48, units: "kWh", .decimal(1, precision: 2))) == [.heatingEnergy: "kWh"])
        for electric: UInt16 in [0, 2, 4, 256, 257] {
            #expect(Mapping.sensors(of: value(0x32, electric, units: "W", .decimal(1, precision: 1))).isEmpty)
        }
    }

    /// Battery: the level as an integer percentage.
    @Test func batteryIsAnIntegerPercentage() {
        let battery = value(0x80, 0, label: "Battery Level", units: "%", .integer(90))
        #expect(Mapping.sensors(of: battery) == [.battery: "%"])
        let readings = Mapping.readings(of: battery)
        #expect(readings.map { $0.0 } == [.battery] && readings.map { $0.1 } == [measurement(90, 0)])
    }

    /// A Notification type's sensors are those of the events its list offers: the MultiSensor's home security
    /// (tamper, motion) has both, the door sensor's (tamper only) no motion; access control is the contact.
    @Test func notificationSensorsComeFromTheEventsTheListOffers() {
        let homeSecurity = value(0x71, 7, label: "Home Security", .listItem(0))
        #expect(Mapping.sensors(of: homeSecurity, listItems: [0, 3, 8]) == [.motion: "", .tamper: ""])
        #expect(Mapping.sensors(of: homeSecurity, listItems: [0, 3]) == [.tamper: ""])
        #expect(Mapping.sensors(of: value(0x71, 6, .listItem(23)), listItems: [0, 22, 23]) == [.contact: ""])
        #expect(Mapping.sensors(of: value(0x71, 1, .listItem(0)), listItems: [0, 2]) == [.smoke: ""])
        #expect(Mapping.sensors(of: value(0x71, 5, .listItem(0)), listItems: [0, 2]) == [.water: ""])
        // Power management, or the v1 alarm values: no sensor.
        #expect(Mapping.sensors(of: value(0x71, 8, .listItem(0)), listItems: [0, 1, 2]).isEmpty)
        #expect(Mapping.sensors(of: value(0x71, 512, .integer(0))).isEmpty)
    }

    /// Events set a sensor; "Clear" ends motion and tamper, never the contact.
    @Test func notificationEventsSetAndClearSensors() {
        func read(_ type: UInt16, _ event: Int) -> [String] {
            Mapping.readings(of: value(0x71, type, .listItem(event))).map { "\($0.0.rawValue)=\($0.1)" }
        }
        #expect(read(7, 8) == ["motion=active(true)"])
        #expect(read(7, 3) == ["tamper=active(true)"])
        #expect(read(7, 0) == ["motion=active(false)", "tamper=active(false)"])
        #expect(read(6, 22) == ["contact=active(true)"])
        #expect(read(6, 23) == ["contact=active(false)"])
        #expect(read(6, 0).isEmpty)
        #expect(read(5, 2) == ["water=active(true)"])
        #expect(read(1, 0) == ["smoke=active(false)"])
        #expect(read(8, 1).isEmpty)
    }

    /// Sensor Binary: typed values by their label; the generic `Sensor` says nothing of what it senses.
    @Test func binarySensorsByTheirType() {
        #expect(Mapping.sensors(of: value(0x30, 12, label: "Motion", .bool(true))) == [.motion: ""])
        #expect(Mapping.sensors(of: value(0x30, 10, label: "Door/Window", .bool(true))) == [.contact: ""])
        #expect(Mapping.sensors(of: value(0x30, 0, label: "Sensor", .bool(true))).isEmpty)
        let readings = Mapping.readings(of: value(0x30, 12, label: "Motion", .bool(true)))
        #expect(readings.map { $0.0 } == [.motion] && readings.map { $0.1 } == [.active(true)])
    }

    /// The topic names and binary payloads are the contract's.
    @Test func topicNamesAndPayloads() {
        let device = TopicScheme(prefix: "Thuis", bridge: "living").device(room: "hall", name: "motion")
        #expect(device.sensor(.temperature) == "Thuis/device/hall/motion/temperature")
        #expect(device.sensor(.gasVolume) == "Thuis/device/hall/motion/gas_volume")
        #expect(Sensor.contact.payload(active: true) == "open" && Sensor.contact.payload(active: false) == "closed")
        #expect(Sensor.motion.payload(active: true) == "on" && Sensor.tamper.payload(active: false) == "off")
    }
}
