import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import Synchronization
import TestSupport

/// Home Assistant's websocket API through the harness's `serve` process (HomeAssistant/ha_harness.py): one JSON
/// request a line on its stdin, one answer a line on its stdout. The waits run inside the harness, on Home
/// Assistant's events, and fail with what they saw last.
final class HomeAssistantClient: Sendable {
    let process: ChildProcess
    private let lastID = Mutex(0)

    init(directory: String) throws {
        process = try ChildProcess(
            executable: HomeAssistantInstall.python,
            arguments: [HomeAssistantInstall.harness, "serve", "--dir", directory], standardInput: true)
    }

    /// Sends `command` with `arguments` and returns its result; throws the harness's error. The harness's own
    /// waits end after `timeout`; the answer is awaited a little longer.
    func request(_ command: String, _ arguments: [String: JSONValue] = [:], timeout: Duration = .seconds(30))
        async throws -> JSONValue
    {
        let id = lastID.withLock {
            $0 += 1
            return $0
        }
        let members: [(String, JSONValue)] =
            [
                ("id", .int(id)), ("command", .string(command)),
                ("timeout", .int(Int(TestTime.scaled(timeout).components.seconds))),
            ]
            + arguments.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        try process.writeInput(JSONValue.object(members).serialized + "\n")
        let prefix = "{\"id\":\(id),"
        guard
            let line = await process.waitForLine(
                timeout: timeout + .seconds(15), where: { $0.stream == .stdout && $0.text.hasPrefix(prefix) })
        else {
            throw TestSupportError(
                "the harness did not answer \(command) within \(TestTime.scaled(timeout + .seconds(15))):\n"
                    + process.outputText.suffix(3_000))
        }
        let answer = try JSONValue.parse(Array(line.text.utf8), maxDepth: 64)
        guard answer["ok"] == true else {
            throw TestSupportError("Home Assistant, \(command): \(answer["error"]?.text ?? answer.serialized)")
        }
        return answer["result"] ?? .null
    }

    /// The MQTT entities (registry entries), the MQTT devices and those entities' states.
    func snapshot() async throws -> HomeAssistantSnapshot {
        HomeAssistantSnapshot(try await request("snapshot"))
    }

    /// Calls a service the way a dashboard or an automation does.
    func call(_ domain: String, _ service: String, _ entityID: String, _ data: [(String, JSONValue)] = [])
        async throws
    {
        _ = try await request(
            "call_service",
            [
                "domain": .string(domain), "service": .string(service), "entity_id": .string(entityID),
                "data": .object(data),
            ])
    }

    /// The device triggers Home Assistant offers for a device.
    func triggers(device: String) async throws -> [JSONValue] {
        try await request("triggers", ["device_id": .string(device)]).items
    }

    /// Waits until every one of `uniqueIDs` is in the entity registry; returns unique id → entity id.
    @discardableResult
    func waitForEntities(_ uniqueIDs: [String], timeout: Duration = .seconds(30)) async throws -> [String: String] {
        let found = try await request(
            "wait_entities", ["unique_ids": .array(uniqueIDs.map { .string($0) })], timeout: timeout)
        guard case .object(let members) = found else { return [:] }
        return Dictionary(uniqueKeysWithValues: members.compactMap { key, value in value.text.map { (key, $0) } })
    }

    /// Waits until none of `uniqueIDs` is in the entity registry.
    func waitForEntitiesGone(_ uniqueIDs: [String], timeout: Duration = .seconds(30)) async throws {
        _ = try await request(
            "wait_entities", ["unique_ids": .array(uniqueIDs.map { .string($0) }), "gone": true], timeout: timeout)
    }

    /// Waits until no MQTT device has `identifier`.
    func waitForDeviceGone(_ identifier: String, timeout: Duration = .seconds(30)) async throws {
        _ = try await request("wait_device_gone", ["identifier": .string(identifier)], timeout: timeout)
    }

    /// Waits until `entityID` exists in `state` (any when nil), not in `stateNot`, with `attributes`.
    @discardableResult
    func waitForState(
        _ entityID: String, _ state: String? = nil, not stateNot: String? = nil,
        attributes: [(String, JSONValue)] = [], timeout: Duration = .seconds(30)
    ) async throws -> HomeAssistantSnapshot.State {
        var arguments: [String: JSONValue] = ["entity_id": .string(entityID), "attributes": .object(attributes)]
        if let state { arguments["state"] = .string(state) }
        if let stateNot { arguments["state_not"] = .string(stateNot) }
        return HomeAssistantSnapshot.State(try await request("wait_state", arguments, timeout: timeout))
    }

    /// Ends the harness (EOF on its stdin), killing it if it does not go.
    func stop() async {
        process.closeInput()
        if await process.waitForExit(timeout: .seconds(5)) == nil { _ = await process.stop() }
    }
}

/// What Home Assistant has from the bridge: its registries (MQTT platform and config entry only) and states.
struct HomeAssistantSnapshot: Sendable {
    struct Entity: Sendable {
        let entityID: String
        let uniqueID: String
        let deviceID: String?
        /// The device class the integration gave it (the discovery's `device_class`).
        let deviceClass: String?
        /// `diagnostic`, `config`, or nil.
        let entityCategory: String?
        var domain: String { String(entityID.prefix { $0 != "." }) }

        init(_ json: JSONValue) {
            entityID = json["entity_id"]?.text ?? ""
            uniqueID = json["unique_id"]?.text ?? ""
            deviceID = json["device_id"]?.text
            deviceClass = json["original_device_class"]?.text
            entityCategory = json["entity_category"]?.text
        }
    }

    struct Device: Sendable {
        let id: String
        let name: String?
        /// The discovery identifiers (registry `["mqtt", id]` pairs).
        let identifiers: [String]
        let viaDeviceID: String?

        init(_ json: JSONValue) {
            id = json["id"]?.text ?? ""
            name = json["name"]?.text
            identifiers = (json["identifiers"]?.items ?? []).compactMap { pair in
                pair.items.first?.text == "mqtt" ? pair.items.last?.text : nil
            }
            viaDeviceID = json["via_device_id"]?.text
        }
    }

    struct State: Sendable, CustomStringConvertible {
        let entityID: String
        let state: String
        let attributes: JSONValue

        init(_ json: JSONValue) {
            entityID = json["entity_id"]?.text ?? ""
            state = json["state"]?.text ?? ""
            attributes = json["attributes"] ?? .null
        }

        var description: String { "\(entityID) = \(state) \(attributes.serialized)" }
    }

    let entities: [Entity]
    let devices: [Device]
    let states: [State]

    init(_ json: JSONValue) {
        entities = (json["entities"]?.items ?? []).map(Entity.init)
        devices = (json["devices"]?.items ?? []).map(Device.init)
        states = (json["states"]?.items ?? []).map(State.init)
    }

    func entity(_ uniqueID: String) -> Entity? { entities.first { $0.uniqueID == uniqueID } }
    func device(id: String?) -> Device? { devices.first { $0.id == id } }
    func device(identifier: String) -> Device? { devices.first { $0.identifiers.contains(identifier) } }
    func state(_ entityID: String) -> State? { states.first { $0.entityID == entityID } }
}

extension JSONValue {
    /// The string, or nil.
    var text: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The number (an integer as a Double), or nil.
    var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The array's elements, or none.
    var items: [JSONValue] {
        if case .array(let items) = self { items } else { [] }
    }
}

/// What the bridge should make of the house's devices in Home Assistant: every entity with its domain and classes,
/// and the device it belongs to.
struct ExpectedEntity: Sendable, CustomStringConvertible {
    let uniqueID: String
    let domain: String
    /// The discovery identifier of its device.
    let device: String
    var deviceClass: String?
    var stateClass: String?
    var unit: String?
    var entityCategory: String?

    var description: String { uniqueID }

    static let bridgeDevice = "thuis_bridge_\(HomeAssistantHouse.bridgeName)"
    static let tvDevice = "thuis_\(HomeAssistantHouse.bridgeName)_cec_0"
    static func zwave(_ rest: String) -> String { "thuis_zwave_\(HomeAssistantHouse.home)_\(rest)" }

    static let dimmerLight = zwave("2_light")
    static let fanSwitch = zwave("4_switch")
    static let shutterCover = zwave("7_cover")
    static let doorLock = zwave("8_lock")
    static let radiatorClimate = zwave("9_climate")

    /// A metered Z-Wave device's power and energy sensors.
    static func meters(_ base: String, device: String) -> [ExpectedEntity] {
        [
            ExpectedEntity(
                uniqueID: base + "_power", domain: "sensor", device: device, deviceClass: "power",
                stateClass: "measurement", unit: "W"),
            ExpectedEntity(
                uniqueID: base + "_energy", domain: "sensor", device: device, deviceClass: "energy",
                stateClass: "total_increasing", unit: "kWh"),
        ]
    }

    /// Everything but the binary switch (node 4, which the exclusion test removes).
    static var shared: [ExpectedEntity] {
        let dimmer = zwave("2")
        let powerNode = zwave("3")
        var all = [
            ExpectedEntity(
                uniqueID: bridgeDevice + "_connection", domain: "binary_sensor", device: bridgeDevice,
                deviceClass: "connectivity"),
            ExpectedEntity(uniqueID: dimmerLight, domain: "light", device: dimmer),
            ExpectedEntity(uniqueID: dimmer + "_scene", domain: "event", device: dimmer),
        ]
        all += meters(dimmer, device: dimmer)
        for socket in [1, 3, 4] {
            all.append(
                ExpectedEntity(
                    uniqueID: "\(powerNode)_\(socket)_switch", domain: "switch", device: powerNode,
                    deviceClass: "outlet"))
            all += meters("\(powerNode)_\(socket)", device: powerNode)
        }
        // The roller shutter: a cover of class shutter, metered.
        all.append(ExpectedEntity(uniqueID: shutterCover, domain: "cover", device: zwave("7"), deviceClass: "shutter"))
        all += meters(zwave("7"), device: zwave("7"))
        // The door lock: a lock (its battery is among the sensors).
        all.append(ExpectedEntity(uniqueID: doorLock, domain: "lock", device: zwave("8")))
        // The radiator thermostat: a climate entity, its temperature and battery sensors.
        all +=
            [
                ExpectedEntity(uniqueID: radiatorClimate, domain: "climate", device: zwave("9")),
                ExpectedEntity(
                    uniqueID: zwave("9_temperature"), domain: "sensor", device: zwave("9"), deviceClass: "temperature",
                    stateClass: "measurement", unit: "°C"),
            ] + battery(node: "9")
        for (role, domain) in [
            ("power", "switch"), ("input", "select"), ("volume", "number"), ("mute", "switch"),
            ("volume_up", "button"), ("volume_down", "button"),
        ] {
            all.append(ExpectedEntity(uniqueID: "\(tvDevice)_\(role)", domain: domain, device: tvDevice))
        }
        return all
    }

    static let fan = ExpectedEntity(uniqueID: fanSwitch, domain: "switch", device: zwave("4"))

    /// The MultiSensor 6 (node 5) and door sensor (node 6): an entity per sensor, each on the sensor's topic.
    static var sensors: [ExpectedEntity] {
        func measurement(_ node: String, _ sensor: String, _ deviceClass: String?, _ unit: String) -> ExpectedEntity {
            ExpectedEntity(
                uniqueID: zwave("\(node)_\(sensor)"), domain: "sensor", device: zwave(node), deviceClass: deviceClass,
                stateClass: "measurement", unit: unit, entityCategory: sensor == "battery" ? "diagnostic" : nil)
        }
        func binary(_ node: String, _ sensor: String, _ deviceClass: String) -> ExpectedEntity {
            ExpectedEntity(
                uniqueID: zwave("\(node)_\(sensor)"), domain: "binary_sensor", device: zwave(node),
                deviceClass: deviceClass,
                entityCategory: ["tamper", "battery_low"].contains(sensor) ? "diagnostic" : nil)
        }
        return [
            measurement("5", "temperature", "temperature", "°C"), measurement("5", "humidity", "humidity", "%"),
            measurement("5", "luminance", "illuminance", "lx"), measurement("5", "ultraviolet", nil, "UV index"),
            measurement("5", "battery", "battery", "%"), binary("5", "motion", "motion"),
            binary("5", "tamper", "tamper"), measurement("6", "temperature", "temperature", "°C"),
            measurement("6", "battery", "battery", "%"), binary("6", "contact", "door"),
            binary("6", "tamper", "tamper"), binary("5", "battery_low", "battery"),
            binary("6", "battery_low", "battery"), measurement("8", "battery", "battery", "%"),
            binary("8", "battery_low", "battery"),
        ]
    }

    /// The WallMote Quad (node 10): an event entity per button, and its battery.
    static var buttons: [ExpectedEntity] {
        (1...4).map { ExpectedEntity(uniqueID: zwave("10_button_\($0)"), domain: "event", device: zwave("10")) }
            + battery(node: "10")
    }

    /// A battery node's battery level and `battery_low`, both diagnostic.
    static func battery(node: String) -> [ExpectedEntity] {
        [
            ExpectedEntity(
                uniqueID: zwave("\(node)_battery"), domain: "sensor", device: zwave(node), deviceClass: "battery",
                stateClass: "measurement", unit: "%", entityCategory: "diagnostic"),
            ExpectedEntity(
                uniqueID: zwave("\(node)_battery_low"), domain: "binary_sensor", device: zwave(node),
                deviceClass: "battery", entityCategory: "diagnostic"),
        ]
    }

    static var all: [ExpectedEntity] { shared + sensors + buttons + [fan] }

    /// The first entity of each device: Home Assistant has every device once it has these.
    static var perDevice: [ExpectedEntity] {
        var seen: Set<String> = []
        return all.filter { seen.insert($0.device).inserted }
    }
}
