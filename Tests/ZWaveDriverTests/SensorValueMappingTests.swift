import BridgeCore
import Testing

@testable import ZWaveDriver

/// OpenZWave values become sensor readings (the driver describes them, BridgeCore's mapping names them), and a node
/// known by its sensors becomes a sensor device that a switch value found later makes a switch.
@Suite struct SensorValueMappingTests {
    func value(
        cc: UInt8, node: UInt8 = 5, instance: UInt8 = 1, index: UInt16, label: String = "", units: String = "",
        _ content: ZWaveValue.Content
    ) -> ZWaveValue {
        let id = ZWaveValueID(
            home: HomeID(rawValue: 0xC0FF_EE01), node: NodeID(node), genre: .user, commandClass: cc, instance: instance,
            index: index, type: .decimal, id: 1)
        return ZWaveValue(id: id, label: label, units: units, readOnly: true, content: content)
    }

    @Test func valuesBecomeSensorReadings() {
        let temperature = value(cc: 0x31, index: 1, label: "Air Temperature", units: "C", .decimal(21.5, precision: 1))
        #expect(
            ZWaveBackend.stateUpdates(temperature) == [
                .sensor(.temperature, .measurement(.init(value: 21.5, precision: 1)))
            ])
        let battery = value(cc: 0x80, index: 0, label: "Battery Level", units: "%", .byte(90))
        #expect(ZWaveBackend.stateUpdates(battery) == [.sensor(.battery, .measurement(.init(value: 90, precision: 0)))])
        let motion = value(cc: 0x71, index: 7, label: "Home Security", .list(value: 8, label: "Motion Detected"))
        #expect(ZWaveBackend.stateUpdates(motion) == [.sensor(.motion, .active(true))])
        let door = value(cc: 0x71, index: 6, label: "Access Control", .list(value: 23, label: "Door/Window Closed"))
        #expect(ZWaveBackend.stateUpdates(door) == [.sensor(.contact, .active(false))])
        // A meter's watts stay the device's power; a generic binary sensor is nothing.
        let watts = value(cc: 0x32, index: 2, units: "W", .decimal(12.5, precision: 1))
        #expect(ZWaveBackend.stateUpdates(watts) == [.power(.init(value: 12.5, precision: 1))])
        #expect(ZWaveBackend.stateUpdates(value(cc: 0x30, index: 0, label: "Sensor", .bool(true))).isEmpty)
    }

    @ZWaveBackendActor
    @Test func aSensorNodeIsDiscoveredAsASensorAndASwitchValueMakesItASwitch() async {
        let seen = await announcements(
            configured: [ZWaveDeviceConfig(node: 12, address: DeviceAddress(room: "hall", name: "motion"))]
        ) { announced in
            announced.sensorsFound([.temperature: "°C"], node: 5, instance: 1)
            announced.sensorsFound([.battery: "%"], node: 5, instance: 1)
            announced.identify(value(cc: 0x25, index: 0, .bool(false)))
            announced.sensorsFound([.motion: ""], node: 12, instance: 1)
        }
        #expect(
            seen == [
                "discovered unassigned/node5 sensor", #"sensors zwave node 5 instance 1 ["temperature"]"#,
                #"sensors zwave node 5 instance 1 ["battery"]"#, "identified zwave node 5 switch",
                "identified zwave node 12 instance 1 sensor", #"sensors zwave node 12 instance 1 ["motion"]"#,
            ])
    }

    /// A radiator valve: its Switch Multilevel (the valve opening), found first, makes a dimmer; its Thermostat Mode
    /// makes it a thermostat, which a later Switch Multilevel or setpoint does not change; its setpoint and mode reports
    /// are state updates.
    @ZWaveBackendActor
    @Test func aThermostatValueMakesADimmerFoundFirstAThermostat() async {
        let (stream, continuation) = AsyncStream.makeStream(of: HardwareEvent.self)
        let announced = DeviceAnnouncements(
            configured: [ZWaveDeviceConfig(node: 8, address: DeviceAddress(room: "bedroom", name: "radiator"))],
            router: EventRouter(stream: continuation))
        announced.identify(value(cc: 0x26, node: 8, index: 0, .byte(0)))
        announced.identify(value(cc: 0x40, node: 8, index: 0, .list(value: 1, label: "Heat")))
        announced.identify(value(cc: 0x43, node: 8, index: 1, .decimal(20, precision: 1)))
        announced.identify(value(cc: 0x26, node: 8, index: 0, .byte(0)))
        // The capabilities' minimum is no device of its own; an unassigned thermostat is discovered as one.
        announced.identify(value(cc: 0x43, node: 8, index: 101, .decimal(8, precision: 1)))
        announced.identify(value(cc: 0x43, node: 9, index: 1, .decimal(20, precision: 1)))
        continuation.finish()
        var seen: [String] = []
        for await event in stream {
            switch event {
            case .discovered(let device): seen.append("discovered \(device.address) \(device.kind.rawValue)")
            case .identified(let source, let kind, _): seen.append("identified \(source) \(kind.rawValue)")
            default: break
            }
        }
        #expect(
            seen == [
                "identified zwave node 8 instance 1 dimmer", "identified zwave node 8 instance 1 thermostat",
                "discovered unassigned/node9 thermostat",
            ])
        let setpoint = value(cc: 0x43, node: 8, index: 1, units: "C", .decimal(21.5, precision: 1))
        #expect(ZWaveBackend.stateUpdates(setpoint) == [.setpoint(.init(value: 21.5, precision: 1))])
        let mode = value(cc: 0x40, node: 8, index: 0, .list(value: 11, label: "Heat Eco"))
        #expect(ZWaveBackend.stateUpdates(mode) == [.mode(.eco)])
    }
}
