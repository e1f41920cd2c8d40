import BridgeCore
import Testing
import WebDashboard

/// Sensor readings in `/metrics`: one gauge, `thuis_device_sensor`, a series per sensor a device has and reported,
/// labelled with the device's id, room and name, the sensor's kind and its unit (the battery a sensor like the others).
@Suite struct SensorMetricsTests {
    static let identity = BridgeIdentity(name: "living")

    static func sensorDevice(_ room: String, _ name: String, node: Int, _ sensors: [Sensor: String])
        -> BridgeInventory.Device
    {
        BridgeInventory.Device(
            descriptor: DeviceDescriptor(
                address: DeviceAddress(room: room, name: name), kind: .sensor,
                source: .zwave(node: node, instance: nil),
                sensors: sensors))
    }

    static let multiSensor = sensorDevice(
        "hall", "motion", node: 5, [.temperature: "°C", .humidity: "%", .motion: "", .battery: "%"])
    static let doorSensor = sensorDevice("hall", "door", node: 6, [.contact: "", .tamper: "", .battery: "%"])

    /// The exposition after the bridge's inventory (as the dashboard hub hands it on) is `devices` and its retained
    /// topics are `retained`.
    func exposition(_ metrics: DashboardMetrics, _ devices: [BridgeInventory.Device], _ retained: [String: String])
        async -> String
    {
        let hub = DashboardHub(identity: Self.identity, scenes: [], metrics: metrics)
        await hub.inventoryChanged(BridgeInventory(identity: Self.identity, devices: devices))
        metrics.refresh(
            .init(mqttConnected: true, adapters: [.zwave: true], retained: retained, networkStatistics: nil))
        return String(decoding: metrics.exposition(), as: UTF8.self)
    }

    static let readings = [
        "Thuis/device/hall/motion/temperature": "21.5", "Thuis/device/hall/motion/motion": "on",
        "Thuis/device/hall/motion/battery": "90", "Thuis/device/hall/door/contact": "closed",
        "Thuis/device/hall/door/tamper": "off", "Thuis/device/hall/door/battery": "80",
    ]

    /// A lock's state: `thuis_device_locked` 1 when locked, `thuis_device_jammed` 1 while jammed.
    @Test func aLockIsLockedAndJammedGauges() async {
        let lock = BridgeInventory.Device(
            descriptor: DeviceDescriptor(
                address: DeviceAddress(room: "hall", name: "door"), kind: .lock, source: .zwave(node: 7, instance: nil))
        )
        let metrics = DashboardMetrics()
        for (state, locked, jammed) in [("locked", "1.0", "0.0"), ("unlocked", "0.0", "0.0"), ("jammed", "0.0", "1.0")]
        {
            let text = await exposition(metrics, [lock], ["Thuis/device/hall/door": state])
            #expect(text.contains(#"thuis_device_locked{id="zwave_7"} \#(locked)"#), "\(state): \(text)")
            #expect(text.contains(#"thuis_device_jammed{id="zwave_7"} \#(jammed)"#), "\(state): \(text)")
            #expect(!text.contains("thuis_device_on{"), "\(text)")
        }
    }

    @Test func readingsAndBatteriesAreGaugesByRoomNameAndKind() async {
        let metrics = DashboardMetrics()
        let text = await exposition(metrics, [Self.multiSensor, Self.doorSensor], Self.readings)
        for line in [
            "# TYPE thuis_device_sensor gauge",
            #"thuis_device_sensor{id="zwave_5",room="hall",name="motion",kind="temperature",unit="°C"} 21.5"#,
            #"thuis_device_sensor{id="zwave_5",room="hall",name="motion",kind="motion",unit=""} 1.0"#,
            #"thuis_device_sensor{id="zwave_5",room="hall",name="motion",kind="battery",unit="%"} 90.0"#,
            #"thuis_device_sensor{id="zwave_6",room="hall",name="door",kind="contact",unit=""} 0.0"#,
            #"thuis_device_sensor{id="zwave_6",room="hall",name="door",kind="tamper",unit=""} 0.0"#,
            #"thuis_device_sensor{id="zwave_6",room="hall",name="door",kind="battery",unit="%"} 80.0"#,
        ] {
            #expect(text.contains(line), "no \(line) in:\n\(text)")
        }
        // A sensor that has not reported yet (the humidity) has no series rather than a made-up 0.
        #expect(!text.contains(#"kind="humidity""#), "\(text)")
    }

    /// A thermostat's heating setpoint is `thuis_device_setpoint` with its unit; before its first report it has none.
    @Test func aThermostatsSetpointIsAGauge() async {
        let radiator = BridgeInventory.Device(
            descriptor: DeviceDescriptor(
                address: DeviceAddress(room: "bedroom", name: "radiator"), kind: .thermostat,
                source: .zwave(node: 8, instance: nil), sensors: [.temperature: "°C"],
                thermostat: ThermostatTraits(minimum: 8, maximum: 28, unit: "°C", precision: 1)))
        let metrics = DashboardMetrics()
        var text = await exposition(metrics, [radiator], [:])
        #expect(!text.contains("thuis_device_setpoint{"), "\(text)")
        text = await exposition(
            metrics, [radiator],
            ["Thuis/device/bedroom/radiator/setpoint": "21.5", "Thuis/device/bedroom/radiator/mode": "heat"])
        let line = #"thuis_device_setpoint{id="zwave_8",room="bedroom",name="radiator",unit="°C"} 21.5"#
        #expect(text.contains(line), "no \(line) in:\n\(text)")
    }

    /// A reading follows the last published one; an open door is 1; a renamed device's series move to its new name,
    /// and a device that left takes its series with it.
    @Test func seriesFollowTheReadingsRenamesAndRemovals() async {
        let metrics = DashboardMetrics()
        _ = await exposition(metrics, [Self.multiSensor, Self.doorSensor], Self.readings)
        var readings = Self.readings
        readings["Thuis/device/hall/motion/temperature"] = "19.0"
        readings["Thuis/device/hall/door/contact"] = "open"
        var text = await exposition(metrics, [Self.multiSensor, Self.doorSensor], readings)
        #expect(text.contains(#"kind="temperature",unit="°C"} 19.0"#), "\(text)")
        #expect(text.contains(#"thuis_device_sensor{id="zwave_6",room="hall",name="door",kind="contact",unit=""} 1.0"#))

        // The door sensor is renamed (its readings now on the new topics), the MultiSensor excluded.
        let renamed = Self.sensorDevice("porch", "door", node: 6, Self.doorSensor.descriptor.sensors)
        readings = Dictionary(
            uniqueKeysWithValues: readings.filter { $0.key.hasPrefix("Thuis/device/hall/door/") }.map {
                ($0.key.replacing("/hall/door/", with: "/porch/door/"), $0.value)
            })
        text = await exposition(metrics, [renamed], readings)
        #expect(
            text.contains(#"thuis_device_sensor{id="zwave_6",room="porch",name="door",kind="contact",unit=""} 1.0"#))
        #expect(!text.contains(#"room="hall""#), "\(text)")
        #expect(!text.contains(#"id="zwave_5""#), "\(text)")
    }

    /// A payload that is no reading of its sensor (a binary sensor's unknown word, a measurement that is no number)
    /// is left out; the device's other readings are not.
    @Test func aPayloadThatIsNoReadingIsLeftOut() async {
        let metrics = DashboardMetrics()
        let text = await exposition(
            metrics, [Self.multiSensor],
            [
                "Thuis/device/hall/motion/motion": "maybe", "Thuis/device/hall/motion/temperature": "warm",
                "Thuis/device/hall/motion/battery": "90",
            ])
        let series = text.split(separator: "\n").filter { $0.hasPrefix("thuis_device_sensor{") }
        #expect(
            series == [#"thuis_device_sensor{id="zwave_5",room="hall",name="motion",kind="battery",unit="%"} 90.0"#])
    }

    /// A scene button's actions are counted by device id, button and action; a word that is no action, or a topic
    /// of no device, is not.
    @Test func buttonActionsAreCountedByDeviceButtonAndAction() async {
        let metrics = DashboardMetrics()
        let wallmote = BridgeInventory.Device(
            descriptor: DeviceDescriptor(
                address: DeviceAddress(room: "hall", name: "wallmote"), kind: .buttons,
                source: .zwave(node: 8, instance: nil)
            ).adding(buttons: [1: ButtonAction.allCases, 2: ButtonAction.allCases]))
        let hub = DashboardHub(identity: Self.identity, scenes: [], metrics: metrics)
        await hub.inventoryChanged(BridgeInventory(identity: Self.identity, devices: [wallmote]))
        for (topic, payload) in [
            ("Thuis/device/hall/wallmote/button/1", "pressed"), ("Thuis/device/hall/wallmote/button/1", "pressed"),
            ("Thuis/device/hall/wallmote/button/2", "held"), ("Thuis/device/hall/wallmote/button/2", "hold"),
            ("Thuis/device/hall/other/button/1", "pressed"),
        ] {
            hub.bridgePublished(topic: topic, payload: Array(payload.utf8), retain: false)
        }
        let text = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(text.contains(#"thuis_button_actions_total{id="zwave_8",button="1",action="pressed"} 2"#), "\(text)")
        #expect(text.contains(#"thuis_button_actions_total{id="zwave_8",button="2",action="held"} 1"#), "\(text)")
        #expect(!text.contains(#"action="hold""#) && !text.contains("zwave_9"), "\(text)")
        let series = text.split(separator: "\n").filter { $0.hasPrefix("thuis_button_actions_total{") }
        #expect(series.count == 2, "\(text)")
    }
}
