import BridgeCore
import FoundationEssentials
import HomeAssistant
import Testing

/// The discovery config of every device kind, against golden files (`Golden/<kind>.json`: every config topic
/// with its payload). `THUIS_UPDATE_GOLDEN=1 swift test --filter DiscoveryMappingTests` writes them anew and fails
/// for each file it changed; a change to them is a change of what Home Assistant users see, to review as such.
@Suite struct DiscoveryMappingTests {
    static let identity = BridgeIdentity(name: "living")

    static func zwave(_ room: String, _ name: String, node: Int, instance: Int? = nil, kind: DeviceKind, metered: Bool)
        -> BridgeInventory.Device
    {
        BridgeInventory.Device(
            descriptor: DeviceDescriptor(
                address: DeviceAddress(room: room, name: name), kind: kind,
                source: .zwave(node: node, instance: instance), metered: metered,
                configured: room != TopicScheme.unassignedRoom),
            facts: node == 2
                ? ["manufacturer": "FIBARO System", "product": "FGD212 Dimmer 2"]
                : node == 3 ? ["manufacturer": "Greenwave Reality", "product": "PowerNode 6"] : [:])
    }

    static let dimmer = zwave("bedroom", "light", node: 2, kind: .dimmer, metered: true)
    static let sockets = [
        zwave("living", "ambilight", node: 3, instance: 4, kind: .socket, metered: true),
        zwave("living", "receiver", node: 3, instance: 1, kind: .socket, metered: true),
    ]
    static let binarySwitch = zwave("hall", "fan", node: 4, kind: .binarySwitch, metered: false)
    static let unassigned = zwave("unassigned", "node10", node: 10, kind: .binarySwitch, metered: false)
    static let tv = BridgeInventory.Device(
        descriptor: DeviceDescriptor(
            address: DeviceAddress(room: "living", name: "tv"), kind: .tv, source: .cec(logicalAddress: 0),
            inputs: ["appletv": "1.0.0.0", "chromecast": "2.0.0.0"]),
        facts: ["vendor": "Samsung"])

    static func configs(_ devices: [BridgeInventory.Device]) -> [DiscoveryConfig] {
        DiscoveryMapping.configs(
            for: BridgeInventory(identity: identity, devices: devices, networks: [.zwave: "c0ffee01"]))
    }

    /// The configs of `devices` as golden text, without the bridge's own (it has its own golden file).
    static func golden(_ devices: [BridgeInventory.Device]) -> String {
        configs(devices).filter { !$0.objectID.hasPrefix("thuis_bridge_") }.map { config in
            "\(config.topic(prefix: "homeassistant"))\n\(config.payload.serialized)\n"
        }.joined()
    }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    @Test(arguments: [
        ("dimmer", [dimmer]), ("powernode", sockets), ("switch", [binarySwitch]), ("unassigned", [unassigned]),
        ("tv", [tv]), ("bridge", []),
    ])
    func goldenConfigs(kind: String, devices: [BridgeInventory.Device]) throws {
        var text = Self.golden(devices)
        if devices.isEmpty {
            text = Self.configs([]).map { "\($0.topic(prefix: "homeassistant"))\n\($0.payload.serialized)\n" }.joined()
        }
        let file = Self.directory.appendingPathComponent("\(kind).txt")
        let expected = try? String(contentsOf: file, encoding: .utf8)
        // A run that rewrites a golden file never passes (so a CI with the variable set cannot go green on it).
        if ProcessInfo.processInfo.environment["THUIS_UPDATE_GOLDEN"] == "1", text != expected {
            try text.write(to: file, atomically: true, encoding: .utf8)
            Issue.record("golden \(kind).txt rewritten: review the change, then run again without THUIS_UPDATE_GOLDEN")
            return
        }
        #expect(text == expected, "golden \(kind).txt differs; THUIS_UPDATE_GOLDEN=1 rewrites it")
    }

    /// Every config payload is a JSON object Home Assistant can read back, with a unique id where it has one.
    @Test func everyConfigIsValidJSONAndUniqueIDsAreUnique() throws {
        let all = Self.configs([Self.dimmer, Self.binarySwitch, Self.unassigned, Self.tv] + Self.sockets)
        var ids = Set<String>()
        for config in all {
            let parsed = try JSONValue.parse(Array(config.payload.serialized.utf8))
            #expect(parsed == config.payload)
            if case .string(let id)? = config.payload["unique_id"] {
                #expect(id == config.objectID)
                #expect(ids.insert(id).inserted, "duplicate unique_id \(id)")
            } else if config.component != "device_automation" {  // Home Assistant's device triggers take none
                Issue.record("a config without a unique_id: \(config.payload.serialized)")
            }
        }
        #expect(Set(all.map { $0.topic(prefix: "homeassistant") }).count == all.count)
    }

    /// Identities come from the hardware: a renamed device keeps its topics and unique ids, only names and the
    /// topics it points at change; an unassigned node that gets a name keeps its identity too.
    @Test func aRenameChangesNamesAndTopicsNotIdentities() {
        let before = Self.configs([Self.dimmer])
        let renamed = Self.configs([Self.zwave("kitchen", "spots", node: 2, kind: .dimmer, metered: true)])
        #expect(before.map(\.objectID) == renamed.map(\.objectID))
        #expect(before.map { $0.topic(prefix: "homeassistant") } == renamed.map { $0.topic(prefix: "homeassistant") })
        let light = renamed.first { $0.component == "light" }
        #expect(light?.payload["command_topic"] == "Thuis/device/kitchen/spots/set")
        #expect(light?.payload["device"]?["name"] == "Kitchen spots")

        let named = Self.configs([Self.zwave("hall", "lamp", node: 10, kind: .binarySwitch, metered: false)])
        let unnamed = Self.configs([Self.unassigned])
        #expect(named.map(\.objectID) == unnamed.map(\.objectID))
    }

    /// Two bridges never produce the same topic or unique id: CEC and the bridge live in the bridge's
    /// namespace, Z-Wave in its network's.
    @Test func twoBridgesNeverCollide() {
        let living = Self.configs([Self.tv, Self.dimmer])
        let attic = DiscoveryMapping.configs(
            for: BridgeInventory(
                identity: BridgeIdentity(name: "attic"), devices: [Self.tv, Self.dimmer],
                networks: [.zwave: "0badcafe"]))
        let topics = Set(living.map { $0.topic(prefix: "homeassistant") })
        #expect(attic.allSatisfy { !topics.contains($0.topic(prefix: "homeassistant")) })
    }

    /// Without the Z-Wave home id, no Z-Wave config (its identity is not known yet).
    /// Scene triggers come from the node's product (`DeviceProfile`): an FGD212 gets its ten, a dimmer whose identity
    /// shows another product gets none (the FGD212's scene ids would mean nothing on it).
    @Test func sceneTriggersAreTheProductsButtons() {
        func triggers(_ facts: [String: String]) -> [String] {
            let device = BridgeInventory.Device(descriptor: Self.dimmer.descriptor, facts: facts)
            return Self.configs([device]).filter { $0.component == "device_automation" }.map(\.objectID)
        }
        let fgd212 = ["manufacturer_id": "0x010f", "product_type": "0x0102", "product_id": "0x1000"]
        #expect(triggers(fgd212).count == 10)
        #expect(triggers(fgd212).contains("thuis_zwave_c0ffee01_2_scene_26"))
        #expect(triggers(["manufacturer_id": "0x0086", "product_type": "0x0003", "product_id": "0x0063"]).isEmpty)
        // Before the node's identity is read, a dimmer is the one the bridge knows.
        #expect(triggers([:]).count == 10)
    }

    @Test func zwaveWaitsForTheHomeID() {
        let configs = DiscoveryMapping.configs(for: BridgeInventory(identity: Self.identity, devices: [Self.dimmer]))
        #expect(configs.map(\.component) == ["binary_sensor"])
    }
}
