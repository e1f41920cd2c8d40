import BridgeCore

/// What a characteristic shows of its device: a fixed value, or one derived from the device's mirrored state.
enum Binding: Sendable {
    case fixed(JSONValue)
    case identify
    /// Lightbulb and Outlet On.
    case on
    case brightness
    case outletInUse
    /// Television Active.
    case active
    case activeIdentifier
    case mute
    case volume
    case volumeSelector
    /// A button's ProgrammableSwitchEvent (`button`: 1 for S1, 2 for S2).
    case switchEvent(button: Int)
    /// A sensor's reading: CurrentTemperature, MotionDetected, ContactSensorState, BatteryLevel...
    case sensor(Sensor)
    /// StatusTampered: the device's tamper sensor.
    case tampered
    /// StatusLowBattery: the device's `battery_low` (the bridge's verdict at `[zwave] low_battery`).
    case lowBattery
    /// A lock's LockCurrentState and LockTargetState.
    case lockCurrent
    case lockTarget
    /// A cover's CurrentPosition, TargetPosition, PositionState and HoldPosition.
    case coverPosition
    case coverTarget
    case positionState
    case holdPosition
    /// A thermostat's CurrentHeatingCoolingState, TargetHeatingCoolingState, TargetTemperature and
    /// TemperatureDisplayUnits.
    case currentHeatingCooling
    case targetHeatingCooling
    case targetTemperature
    case temperatureUnits
}

struct LayoutCharacteristic: Sendable {
    let iid: Int
    let type: CharacteristicType
    let binding: Binding
}

struct LayoutService: Sendable {
    let iid: Int
    let type: String
    var primary = false
    var linked: [Int] = []
    let characteristics: [LayoutCharacteristic]
}

/// One accessory: the bridge itself (`device` nil, aid 1) or one device.
struct LayoutAccessory: Sendable {
    let aid: Int
    let device: DeviceDescriptor?
    let services: [LayoutService]
}

/// The accessories for an inventory. Instance ids are fixed per service type, so they survive a restart and a
/// rename (the aid comes from the allocator, keyed by the hardware address):
///
/// - 1: Accessory Information (2 Identify, 3 Manufacturer, 4 Model, 5 Name, 6 SerialNumber, 7 FirmwareRevision);
///   the bridge's aid 1 adds 8: HAP Protocol Information (9 Version).
/// - 10: the device's service: Lightbulb (11 On, 12 Brightness), Outlet (11 On, 12 OutletInUse), Television
///   (11 Active, 12 ActiveIdentifier, 13 ConfiguredName, 14 SleepDiscoveryMode), Window Covering (11
///   CurrentPosition, 12 TargetPosition, 13 PositionState, 14 HoldPosition), Lock Mechanism (11
///   LockCurrentState, 12 LockTargetState) or Thermostat (11 CurrentHeatingCoolingState, 12
///   TargetHeatingCoolingState, 13 CurrentTemperature, 14 TargetTemperature, 15 TemperatureDisplayUnits; its
///   temperature is no Temperature Sensor of its own).
/// - 20: Television Speaker (21 Mute, 22 Volume, 23 VolumeControlType, 24 VolumeSelector).
/// - 30 + 10 × button: a Stateless Programmable Switch for button S1 (40) or S2 (50), or a Central Scene button
///   1-16 (40-190; a button above 16 at 1000 + 10 × button), with +1 ProgrammableSwitchEvent; with several buttons,
///   +2 ServiceLabelIndex and 30: Service Label (31 ServiceLabelNamespace 1, arabic numerals).
/// - 100 + 10 × k: Input Source number k (1-based, inputs sorted by name), with +1 ConfiguredName,
///   +2 InputSourceType, +3 IsConfigured, +4 CurrentVisibilityState, +5 Identifier.
/// - 200-260: one service per sensor the device has (``sensorServices``): Temperature Sensor (200), Humidity
///   Sensor (210), Light Sensor (220), Motion Sensor (230), Contact Sensor (240), Leak Sensor (250), Smoke Sensor
///   (260), each with +1 its reading and, when the device has a tamper switch, +2 StatusTampered.
/// - 270: Battery Service (271 BatteryLevel, 272 StatusLowBattery, 273 ChargingState: not chargeable).
struct AccessoryLayout: Sendable {
    /// The bridge's own accessory id.
    static let bridgeAID = 1
    static let informationIID = 1
    static let primaryIID = 10
    static let speakerIID = 20
    static let serviceLabelIID = 30
    static let batteryIID = 270

    /// The sensors HomeKit has a service for: the service's instance id and type, and the reading's characteristic.
    /// Ultraviolet, pressure, CO₂ and the non-electric meters have none HomeKit shows and are left out.
    static let sensorServices: [(sensor: Sensor, iid: Int, type: String, reading: CharacteristicType)] = [
        (.temperature, 200, ServiceType.temperatureSensor, .currentTemperature),
        (.humidity, 210, ServiceType.humiditySensor, .currentRelativeHumidity),
        (.luminance, 220, ServiceType.lightSensor, .currentAmbientLightLevel),
        (.motion, 230, ServiceType.motionSensor, .motionDetected),
        (.contact, 240, ServiceType.contactSensor, .contactSensorState),
        (.water, 250, ServiceType.leakSensor, .leakDetected),
        (.smoke, 260, ServiceType.smokeSensor, .smokeDetected),
    ]

    /// Which sensor service is a sensor device's primary one: what it is mostly for.
    static let primarySensors: [Sensor] = [.contact, .motion, .water, .smoke, .temperature, .humidity, .luminance]

    /// The button scheme of a Z-Wave node whose first device is `first`: its kind's profile (``DeviceProfile``).
    /// HomeKit takes it from the configured kind, not from the interview, so an accessory's services (and the
    /// configuration number) do not change when a node's interview ends.
    static func scheme(ofNodeWith first: DeviceDescriptor?) -> ButtonScheme? {
        first.flatMap { DeviceProfile.profile(facts: [:], kind: $0.kind)?.buttons }
    }

    /// A press as HomeKit's ProgrammableSwitchEvent (single 0, double 1, long 2), nil for a press HomeKit does not
    /// know (triple, release).
    static func switchEvent(_ press: ButtonPress) -> Int? {
        switch press {
        case .single: 0
        case .double: 1
        case .hold: 2
        case .triple, .release: nil
        }
    }

    /// A scene button's action as HomeKit's ProgrammableSwitchEvent: pressed single (0), pressed 2x double (1), held
    /// long (2); nil for the rest (pressed 3x-5x, released), which HomeKit has no event for.
    static func switchEvent(_ action: ButtonAction) -> Int? {
        switch action {
        case .pressed: 0
        case .pressed2x: 1
        case .held: 2
        case .pressed3x, .pressed4x, .pressed5x, .released: nil
        }
    }

    /// The instance id of button `button`'s Stateless Programmable Switch: 30 + 10 × button for buttons 1-16 (40-190,
    /// below the sensors'), 1000 + 10 × button beyond.
    static func switchIID(_ button: Int) -> Int {
        button <= 16 ? serviceLabelIID + 10 * button : 1000 + 10 * button
    }

    /// The button and ProgrammableSwitchEvent value of `scene` on the node whose first device is `first`.
    static func press(_ scene: Int, ofNodeWith first: DeviceDescriptor?) -> (button: Int, event: Int)? {
        guard let press = scheme(ofNodeWith: first)?.press(of: scene), let event = switchEvent(press.press) else {
            return nil
        }
        return (press.button, event)
    }

    let accessories: [LayoutAccessory]
    /// The first device of each Z-Wave node, in inventory order (whose kind gives the node's button scheme).
    let firstDevices: [Int: DeviceDescriptor]

    /// The button and ProgrammableSwitchEvent value of `scene` from Z-Wave `node`, nil when it is no press HomeKit
    /// knows.
    func press(_ scene: Int, ofNode node: Int) -> (button: Int, event: Int)? {
        Self.press(scene, ofNodeWith: firstDevices[node])
    }

    /// The key of a device for the aid allocator: its hardware address (`zwave:2`, `zwave:3:1`, `cec:0`), which a
    /// rename in devices.toml keeps.
    static func allocationKey(_ source: DeviceSource) -> String {
        switch source {
        case .zwave(let node, nil): "zwave:\(node)"
        case .zwave(let node, let instance?): "zwave:\(node):\(instance)"
        case .cec(let address): "cec:\(address)"
        }
    }

    /// The buttons of `device`: all of its scheme's on the node's first device when its scene activation is on
    /// (`sceneNodes`, the profile's activation parameter in devices.toml), and those a `[[zwave.scene]]` names (on the device the bridge
    /// publishes the node's `/scene` on: the endpoint itself, else the node's first device).
    static func buttons(
        of device: DeviceDescriptor, scenes: [ZWaveSceneConfig], devices: [DeviceDescriptor],
        sceneNodes: Set<Int> = []
    ) -> [Int] {
        guard case .zwave(let node, let instance) = device.source else { return [] }
        let first = firstDevice(ofNode: node, in: devices)
        guard let scheme = scheme(ofNodeWith: first) else { return [] }
        if sceneNodes.contains(node), first?.source == device.source { return scheme.buttons }
        let pressed = scenes.filter { scene in
            guard scene.node == node, press(scene.scene, ofNodeWith: first) != nil else { return false }
            let target =
                devices.first { $0.source == .zwave(node: node, instance: scene.instance) } ?? first
            return target?.source == .zwave(node: node, instance: instance)
        }
        return Set(pressed.compactMap { press($0.scene, ofNodeWith: first)?.button }).sorted()
    }

    /// The first device of Z-Wave `node` in `devices` (the one its node-level reports and scenes go to).
    static func firstDevice(ofNode node: Int, in devices: [DeviceDescriptor]) -> DeviceDescriptor? {
        devices.first { if case .zwave(node, _) = $0.source { true } else { false } }
    }

    init(
        bridgeName: String, bridgeSerial: String, inventory: [BridgeInventory.Device], scenes: [ZWaveSceneConfig],
        sceneNodes: Set<Int> = [], withAudio: Set<DeviceAddress>, allocate: (String) -> Int
    ) {
        var accessories = [
            LayoutAccessory(
                aid: Self.bridgeAID, device: nil,
                services: [
                    Self.information(
                        name: bridgeName, manufacturer: "thuis-bridge", model: "thuis-bridge", serial: bridgeSerial),
                    LayoutService(
                        iid: 8, type: ServiceType.protocolInformation,
                        characteristics: [LayoutCharacteristic(iid: 9, type: .version, binding: .fixed("1.1.0"))]),
                ])
        ]
        let devices = inventory.map(\.descriptor)
        var firstDevices: [Int: DeviceDescriptor] = [:]
        for device in devices {
            if case .zwave(let node, _) = device.source, firstDevices[node] == nil { firstDevices[node] = device }
        }
        self.firstDevices = firstDevices
        for entry in inventory {
            let device = entry.descriptor
            let key = Self.allocationKey(device.source)
            let information = Self.information(
                name: "\(device.address.room) \(device.address.name)",
                manufacturer: entry.facts["manufacturer"].flatMap { $0.isEmpty ? nil : $0 }
                    ?? (device.source.adapter == .zwave ? "Z-Wave" : "HDMI-CEC"),
                model: entry.facts["product"].flatMap { $0.isEmpty ? nil : $0 } ?? device.kind.rawValue, serial: key)
            var services = [information]
            switch device.kind {
            case .dimmer:
                services.append(Self.service(.lightbulb, [(.on, .on), (.brightness, .brightness)]))
            case .binarySwitch, .socket:
                services.append(Self.service(.outlet, [(.on, .on), (.outletInUse, .outletInUse)]))
            case .tv:
                services += Self.television(device, audio: withAudio.contains(device.address))
            case .sensor:
                break  // its sensors' services follow
            case .buttons:
                break  // its buttons' switches follow
            case .cover:
                services.append(
                    Self.service(
                        .windowCovering,
                        [
                            (.currentPosition, .coverPosition), (.targetPosition, .coverTarget),
                            (.positionState, .positionState), (.holdPosition, .holdPosition),
                        ]))
            case .lock:
                services.append(
                    Self.service(.lockMechanism, [(.lockCurrentState, .lockCurrent), (.lockTargetState, .lockTarget)]))
            case .thermostat:
                services.append(Self.thermostat(device))
            }
            services += Self.sensors(of: device)
            let sceneButtons = Self.buttons(of: device, scenes: scenes, devices: devices, sceneNodes: sceneNodes)
            services += Self.switches(Set(sceneButtons).union(device.buttons.keys).sorted())
            let aid = allocate(key)
            // The allocator never hands out the bridge's aid; a broken one cannot make two accessories share one.
            guard aid != Self.bridgeAID, !accessories.contains(where: { $0.aid == aid }) else { continue }
            accessories.append(LayoutAccessory(aid: aid, device: device, services: services))
        }
        self.accessories = accessories.sorted { $0.aid < $1.aid }
    }

    // MARK: Services

    private static func information(name: String, manufacturer: String, model: String, serial: String)
        -> LayoutService
    {
        LayoutService(
            iid: informationIID, type: ServiceType.accessoryInformation,
            characteristics: [
                LayoutCharacteristic(iid: 2, type: .identify, binding: .identify),
                LayoutCharacteristic(iid: 3, type: .manufacturer, binding: .fixed(.string(manufacturer))),
                LayoutCharacteristic(iid: 4, type: .model, binding: .fixed(.string(model))),
                LayoutCharacteristic(iid: 5, type: .name, binding: .fixed(.string(name))),
                LayoutCharacteristic(iid: 6, type: .serialNumber, binding: .fixed(.string(serial))),
                LayoutCharacteristic(
                    iid: 7, type: .firmwareRevision, binding: .fixed(.string(BuildInfo.version))),
            ])
    }

    private enum Primary {
        case lightbulb, outlet, windowCovering, lockMechanism
        var type: String {
            switch self {
            case .lightbulb: ServiceType.lightbulb
            case .outlet: ServiceType.outlet
            case .windowCovering: ServiceType.windowCovering
            case .lockMechanism: ServiceType.lockMechanism
            }
        }
    }

    private static func service(_ primary: Primary, _ characteristics: [(CharacteristicType, Binding)])
        -> LayoutService
    {
        LayoutService(
            iid: primaryIID, type: primary.type, primary: true,
            characteristics: characteristics.enumerated().map { index, item in
                LayoutCharacteristic(iid: primaryIID + 1 + index, type: item.0, binding: item.1)
            })
    }

    private static func television(_ device: DeviceDescriptor, audio: Bool) -> [LayoutService] {
        let inputs = device.inputs.keys.sorted()
        let inputServices = inputs.enumerated().map { index, name in
            let iid = 100 + 10 * (index + 1)
            return LayoutService(
                iid: iid, type: ServiceType.inputSource,
                characteristics: [
                    LayoutCharacteristic(iid: iid + 1, type: .configuredName, binding: .fixed(.string(name))),
                    LayoutCharacteristic(iid: iid + 2, type: .inputSourceType, binding: .fixed(.int(3))),
                    LayoutCharacteristic(iid: iid + 3, type: .isConfigured, binding: .fixed(.int(1))),
                    LayoutCharacteristic(iid: iid + 4, type: .currentVisibilityState, binding: .fixed(.int(0))),
                    LayoutCharacteristic(iid: iid + 5, type: .identifier, binding: .fixed(.int(index + 1))),
                ])
        }
        let name = "\(device.address.room) \(device.address.name)"
        var television = LayoutService(
            iid: primaryIID, type: ServiceType.television, primary: true,
            characteristics: [
                LayoutCharacteristic(iid: 11, type: .active, binding: .active),
                LayoutCharacteristic(iid: 12, type: .activeIdentifier, binding: .activeIdentifier),
                LayoutCharacteristic(iid: 13, type: .configuredName, binding: .fixed(.string(name))),
                LayoutCharacteristic(iid: 14, type: .sleepDiscoveryMode, binding: .fixed(.int(1))),
            ])
        television.linked = inputServices.map(\.iid) + (audio ? [speakerIID] : [])
        guard audio else { return [television] + inputServices }
        let speaker = LayoutService(
            iid: speakerIID, type: ServiceType.televisionSpeaker,
            characteristics: [
                LayoutCharacteristic(iid: 21, type: .mute, binding: .mute),
                LayoutCharacteristic(iid: 22, type: .volume, binding: .volume),
                LayoutCharacteristic(iid: 23, type: .volumeControlType, binding: .fixed(.int(3))),
                LayoutCharacteristic(iid: 24, type: .volumeSelector, binding: .volumeSelector),
            ])
        return [television, speaker] + inputServices
    }

    /// A service per sensor of `device` HomeKit has one for, with StatusTampered when the device has a tamper switch,
    /// and a Battery Service for its battery; a sensor device's first sensor service of ``primarySensors`` is its
    /// primary service.
    private static func sensors(of device: DeviceDescriptor) -> [LayoutService] {
        let tamper = device.sensors[.tamper] != nil
        let primary = device.kind == .sensor ? primarySensors.first { device.sensors[$0] != nil } : nil
        // A thermostat's temperature is its Thermostat's CurrentTemperature.
        let shown = sensorServices.filter {
            device.sensors[$0.sensor] != nil && !(device.kind == .thermostat && $0.sensor == .temperature)
        }
        var services = shown.map { entry in
            LayoutService(
                iid: entry.iid, type: entry.type, primary: entry.sensor == primary,
                characteristics: [
                    LayoutCharacteristic(iid: entry.iid + 1, type: entry.reading, binding: .sensor(entry.sensor))
                ]
                    + (tamper
                        ? [LayoutCharacteristic(iid: entry.iid + 2, type: .statusTampered, binding: .tampered)] : []))
        }
        if device.sensors[.battery] != nil {
            services.append(
                LayoutService(
                    iid: batteryIID, type: ServiceType.batteryService,
                    characteristics: [
                        LayoutCharacteristic(iid: batteryIID + 1, type: .batteryLevel, binding: .sensor(.battery)),
                        LayoutCharacteristic(iid: batteryIID + 2, type: .statusLowBattery, binding: .lowBattery),
                        LayoutCharacteristic(iid: batteryIID + 3, type: .chargingState, binding: .fixed(.int(2))),
                    ]))
        }
        return services
    }

    /// A thermostat's Thermostat service: the modes it has of off, heat, cool and auto, the target temperature within
    /// its setpoint's range (°C), its temperature sensor's reading.
    static func thermostat(_ device: DeviceDescriptor) -> LayoutService {
        let traits = device.thermostat ?? ThermostatTraits()
        let modes = ThermostatStates.targetModes.filter { traits.offeredModes.contains($0.mode) }.map(\.value)
        let range = ThermostatStates.celsiusRange(traits)
        let step = traits.temperatureUnit == "°F" ? 0.1 : traits.step
        return LayoutService(
            iid: primaryIID, type: ServiceType.thermostat, primary: true,
            characteristics: [
                LayoutCharacteristic(iid: 11, type: .currentHeatingCoolingState, binding: .currentHeatingCooling),
                LayoutCharacteristic(
                    iid: 12, type: .targetHeatingCoolingState(modes.isEmpty ? [0, 1] : modes),
                    binding: .targetHeatingCooling),
                LayoutCharacteristic(iid: 13, type: .currentTemperature, binding: .sensor(.temperature)),
                LayoutCharacteristic(
                    iid: 14, type: .targetTemperature(minimum: range.lowerBound, maximum: range.upperBound, step: step),
                    binding: .targetTemperature),
                LayoutCharacteristic(iid: 15, type: .temperatureDisplayUnits, binding: .temperatureUnits),
            ])
    }

    /// One Stateless Programmable Switch per button; with several, a Service Label and each one's index.
    private static func switches(_ buttons: [Int]) -> [LayoutService] {
        let labelled = buttons.count > 1
        let label = LayoutService(
            iid: serviceLabelIID, type: ServiceType.serviceLabel,
            characteristics: [
                LayoutCharacteristic(iid: serviceLabelIID + 1, type: .serviceLabelNamespace, binding: .fixed(.int(1)))
            ])
        return (labelled ? [label] : [])
            + buttons.map { button in
                let iid = switchIID(button)
                let index = LayoutCharacteristic(
                    iid: iid + 2, type: .serviceLabelIndex, binding: .fixed(.int(button)))
                return LayoutService(
                    iid: iid, type: ServiceType.statelessProgrammableSwitch,
                    characteristics: [
                        LayoutCharacteristic(
                            iid: iid + 1, type: .programmableSwitchEvent, binding: .switchEvent(button: button))
                    ] + (labelled ? [index] : []))
            }
    }
}
