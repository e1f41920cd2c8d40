public import BridgeCore

/// The bridge's devices as Home Assistant discovery configs (pure: the inventory in, the configs out).
///
/// Every config points Home Assistant at the bridge's own topics (`<prefix>/device/<room>/<name>`, `/set`,
/// `/power`...): one contract, no second topic tree. Identities never come from room and name:
/// - a Z-Wave node is the Home Assistant device `thuis_zwave_<home id>_<node>`, its entities
///   `thuis_zwave_<home id>_<node>[_<instance>]_<role>` (a sensor's role is its topic name, `_temperature`), all
///   under the node id `thuis_zwave_<home id>`;
/// - a CEC device is `thuis_<bridge>_cec_<logical address>` (the address devices.toml pins), under
///   `thuis_<bridge>`, like the bridge itself (`thuis_bridge_<bridge>`), which every other device is
///   `via_device` of.
/// Renaming a device in devices.toml changes names and topics in the same configs, so Home Assistant updates
/// the entities in place. Z-Wave devices wait for the network's home id.
public enum DiscoveryMapping {
    /// Every config the bridge publishes for `inventory`.
    public static func configs(for inventory: BridgeInventory) -> [DiscoveryConfig] {
        groups(of: inventory).flatMap { configs(of: $0, identity: inventory.identity) }
    }

    /// The devices whose configs are made together: the bridge itself, one CEC device, or one Z-Wave node (its
    /// endpoints are entities of one Home Assistant device).
    public struct Group: Sendable, Equatable {
        public enum Key: Sendable, Hashable {
            case bridge
            case cec(logicalAddress: Int)
            case zwave(node: Int)
        }

        public let key: Key
        public let devices: [BridgeInventory.Device]
        /// The Z-Wave network's home id (Z-Wave groups only).
        public let home: String?
    }

    /// The groups of `inventory`, in the order of their configs: the bridge, the CEC devices, then the Z-Wave nodes
    /// (once the network's home id is known) whose devices' kinds are all known (``pendingNodes(of:)``: a guess
    /// published and corrected moments later would show Home Assistant entities the node does not have). A
    /// group's configs depend on the group alone (and the bridge's identity): one that did not change need not be
    /// mapped again.
    public static func groups(of inventory: BridgeInventory) -> [Group] {
        var groups = [Group(key: .bridge, devices: [], home: nil)]
        var nodes: [Int: [BridgeInventory.Device]] = [:]
        for device in inventory.devices {
            switch device.descriptor.source {
            case .zwave(let node, _): nodes[node, default: []].append(device)
            case .cec(let address):
                groups.append(Group(key: .cec(logicalAddress: address), devices: [device], home: nil))
            }
        }
        if let home = inventory.networks[.zwave] {
            let pending = pendingNodes(of: inventory)
            for (node, devices) in nodes.sorted(by: { $0.key < $1.key }) where !pending.contains(node) {
                groups.append(Group(key: .zwave(node: node), devices: devices, home: home))
            }
        }
        return groups
    }

    /// The Z-Wave nodes with a device whose kind is still a guess (neither interviewed nor in the network cache).
    public static func pendingNodes(of inventory: BridgeInventory) -> Set<Int> {
        var pending: Set<Int> = []
        for device in inventory.devices where !device.descriptor.kindKnown {
            if case .zwave(let node, _) = device.descriptor.source { pending.insert(node) }
        }
        return pending
    }

    /// The configs of one group.
    public static func configs(of group: Group, identity: BridgeIdentity) -> [DiscoveryConfig] {
        let context = Context(identity: identity)
        switch group.key {
        case .bridge:
            return [context.bridgeConnectivity()]
        case .cec(let address):
            return group.devices.flatMap { context.cec($0, logicalAddress: address) }
        case .zwave(let node):
            guard let home = group.home else { return [] }
            return context.zwave(node: node, home: home, devices: group.devices)
        }
    }

    /// A button scheme's scenes as device trigger `type`/`subtype` (S1 is `button_1`, S2 `button_2`) and event type.
    static func triggers(_ scheme: ButtonScheme) -> [(scene: Int, type: String, subtype: String)] {
        scheme.scenes.map { ($0.scene, triggerType($0.press), "button_\($0.button)") }
    }

    /// Home Assistant's device trigger type of a press.
    static func triggerType(_ press: ButtonPress) -> String {
        switch press {
        case .single: "button_short_press"
        case .double: "button_double_press"
        case .triple: "button_triple_press"
        case .hold: "button_long_press"
        case .release: "button_long_release"
        }
    }

    /// Home Assistant's device trigger type of a scene button's action.
    static func triggerType(_ action: ButtonAction) -> String {
        switch action {
        case .pressed: "button_short_press"
        case .pressed2x: "button_double_press"
        case .pressed3x: "button_triple_press"
        case .pressed4x: "button_quadruple_press"
        case .pressed5x: "button_quintuple_press"
        case .held: "button_long_press"
        case .released: "button_long_release"
        }
    }

    /// What every config of one bridge shares.
    struct Context {
        let identity: BridgeIdentity
        var bridgeNode: String { "thuis_\(identity.name)" }
        var bridgeDeviceID: String { "thuis_bridge_\(identity.name)" }
        var bridgeState: String { identity.topics.bridgeState }

        var origin: JSONValue {
            .object([("name", "thuis-bridge"), ("sw_version", .string(BuildInfo.version))])
        }

        /// The bridge as a device, with its connectivity.
        func bridgeConnectivity() -> DiscoveryConfig {
            let id = "\(bridgeDeviceID)_connection"
            return DiscoveryConfig(
                component: "binary_sensor", nodeID: bridgeNode, objectID: id,
                payload: .object([
                    ("name", "Connection"), ("unique_id", .string(id)), ("state_topic", .string(bridgeState)),
                    ("payload_on", "online"), ("payload_off", "offline"), ("device_class", "connectivity"),
                    ("entity_category", "diagnostic"),
                    (
                        "device",
                        .object([
                            ("identifiers", [.string(bridgeDeviceID)]),
                            ("name", .string("Thuis bridge \(identity.name)")),
                            ("manufacturer", "Thuis"), ("model", "thuis-bridge"),
                            ("sw_version", .string(BuildInfo.version)),
                        ])
                    ),
                    ("origin", origin),
                ]))
        }

        /// A device block: its identity, its name and where it hangs.
        func device(id: String, name: String, manufacturer: String?, model: String?) -> JSONValue {
            var fields: [(String, JSONValue)] = [("identifiers", [.string(id)]), ("name", .string(name))]
            if let manufacturer, !manufacturer.isEmpty { fields.append(("manufacturer", .string(manufacturer))) }
            if let model, !model.isEmpty { fields.append(("model", .string(model))) }
            fields.append(("via_device", .string(bridgeDeviceID)))
            return .object(fields)
        }

        /// The common part of an entity config: name, identity, availability (bridge and device), device.
        func entity(
            _ component: String, node: String, id: String, name: String?, address: DeviceAddress, device: JSONValue,
            _ specific: [(String, JSONValue)]
        ) -> DiscoveryConfig {
            let availability: JSONValue = [
                .object([("topic", .string(bridgeState))]),
                // A battery node between wake-ups (`asleep`) stays available: its last readings stand.
                .object([
                    ("topic", .string(identity.topics.device(address).availability)),
                    ("value_template", "{{ 'offline' if value == 'offline' else 'online' }}"),
                ]),
            ]
            let head: [(String, JSONValue)] = [
                ("name", name.map { .string($0) } ?? .null), ("unique_id", .string(id)),
                ("availability", availability), ("availability_mode", "all"),
            ]
            return DiscoveryConfig(
                component: component, nodeID: node, objectID: id,
                payload: .object(head + specific + [("qos", 1), ("device", device), ("origin", origin)]))
        }

        // MARK: Z-Wave

        /// One Z-Wave node: one Home Assistant device, the entities of every Thuis device of the node.
        func zwave(node: Int, home: String, devices: [BridgeInventory.Device]) -> [DiscoveryConfig] {
            let namespace = "thuis_zwave_\(home)"
            let facts = devices.first?.facts ?? [:]
            let single = devices.count == 1
            let name: String
            if single, let only = devices.first, only.descriptor.address.room != TopicScheme.unassignedRoom {
                name = humanized(only.descriptor.address)
            } else {
                let product = facts["product"].map { $0.isEmpty ? "" : " (\($0))" } ?? ""
                name = "Z-Wave node \(node)\(product)"
            }
            let block = device(
                id: "\(namespace)_\(node)", name: name, manufacturer: facts["manufacturer"], model: facts["product"])
            var configs: [DiscoveryConfig] = []
            for member in devices {
                let descriptor = member.descriptor
                guard case .zwave(_, let instance) = descriptor.source else { continue }
                let base = "\(namespace)_\(node)" + (instance.map { "_\($0)" } ?? "")
                // One device on the node: its main entity is the node's (named after it); else each is named
                // after its own room and name, and its sensors after that.
                let own = single ? nil : humanized(descriptor.address)
                func named(_ suffix: String) -> String { own.map { "\($0) \(suffix.lowercased())" } ?? suffix }
                let topics = identity.topics.device(descriptor.address)
                func add(_ component: String, _ role: String, _ entityName: String?, _ fields: [(String, JSONValue)]) {
                    configs.append(
                        entity(
                            component, node: namespace, id: "\(base)_\(role)", name: entityName,
                            address: descriptor.address, device: block, fields))
                }
                switch descriptor.kind {
                case .dimmer:
                    add("light", "light", own, Self.dimmerLight(topics))
                case .binarySwitch, .socket:
                    add("switch", "switch", own, Self.onOffSwitch(topics, outlet: descriptor.kind == .socket))
                case .cover:
                    add("cover", "cover", own, Self.cover(topics))
                case .lock:
                    add("lock", "lock", own, Self.lock(topics))
                case .thermostat:
                    add("climate", "climate", own, DiscoveryMapping.climate(descriptor, topics))
                case .tv, .sensor:
                    break  // a sensor device is its sensors' entities (below)
                case .buttons:
                    break  // its buttons' entities (below)
                }
                if descriptor.metered {
                    add("sensor", "power", named("Power"), Self.sensor(topics.power, "power", "measurement", "W"))
                    add(
                        "sensor", "energy", named("Energy"),
                        Self.sensor(topics.energy, "energy", "total_increasing", "kWh"))
                }
                // Every sensor the device has (a sensor device's, a switch's temperature...), its role the sensor's
                // topic name (`_temperature`, `_motion`, `_battery`).
                for (sensor, unit) in descriptor.sensors.sorted(by: { $0.key < $1.key }) {
                    let entity = DiscoveryMapping.sensorEntity(sensor, unit: unit, topic: topics.sensor(sensor))
                    add(entity.component, sensor.rawValue, named(entity.name), entity.fields)
                }
                // Each scene button (Central Scene): an event entity and a device trigger per action.
                for (button, actions) in descriptor.buttons.sorted(by: { $0.key < $1.key }) {
                    let topic = topics.button(button)
                    add("event", "button_\(button)", named("Button \(button)"), Self.buttonEvent(topic, actions))
                    for action in actions.sorted() {
                        configs.append(
                            DiscoveryConfig(
                                component: "device_automation", nodeID: namespace,
                                objectID: "\(base)_button_\(button)_\(action.rawValue)",
                                payload: .object([
                                    ("automation_type", "trigger"), ("topic", .string(topic)),
                                    ("type", .string(DiscoveryMapping.triggerType(action))),
                                    ("subtype", .string("button_\(button)")), ("payload", .string(action.rawValue)),
                                    ("device", block), ("origin", origin),
                                ])))
                    }
                }
                // The product's buttons (`DeviceProfile`), when it has them.
                if let scheme = DeviceProfile.profile(facts: facts, kind: descriptor.kind)?.buttons {
                    let triggers = DiscoveryMapping.triggers(scheme)
                    add("event", "scene", named("Scene"), Self.sceneEvent(topics.scene, triggers))
                    for scene in triggers {
                        configs.append(
                            DiscoveryConfig(
                                component: "device_automation", nodeID: namespace,
                                objectID: "\(base)_scene_\(scene.scene)",
                                payload: .object([
                                    ("automation_type", "trigger"), ("topic", .string(topics.scene)),
                                    ("type", .string(scene.type)), ("subtype", .string(scene.subtype)),
                                    ("payload", .string(String(scene.scene))), ("device", block), ("origin", origin),
                                ])))
                    }
                }
            }
            return configs
        }

        /// An FGD212: levels 0-99 on one topic; `on` restores the last level (the bridge does), a brightness is
        /// one level (Home Assistant sends the level, then `on`, which the bridge takes as "stay on").
        static func dimmerLight(_ topics: TopicScheme.Device) -> [(String, JSONValue)] {
            [
                ("state_topic", .string(topics.state)),
                ("state_value_template", "{{ 'on' if value | int(0) > 0 else 'off' }}"),
                ("command_topic", .string(topics.set)), ("payload_on", "on"), ("payload_off", "off"),
                ("brightness_state_topic", .string(topics.state)),
                ("brightness_value_template", "{{ value | int(0) }}"),
                ("brightness_command_topic", .string(topics.set)), ("brightness_scale", 99),
            ]
        }

        /// A roller shutter: its position (% open) on the state topic, its movement on `/movement` (`stopped`: Home
        /// Assistant tells open from closed by the position), `open`/`close`/`stop` and a position on `/set`.
        static func cover(_ topics: TopicScheme.Device) -> [(String, JSONValue)] {
            [
                ("device_class", "shutter"), ("position_topic", .string(topics.state)), ("position_open", 100),
                ("position_closed", 0), ("set_position_topic", .string(topics.set)),
                ("command_topic", .string(topics.set)), ("payload_open", "open"), ("payload_close", "close"),
                ("payload_stop", "stop"), ("state_topic", .string(topics.movement)), ("state_opening", "opening"),
                ("state_closing", "closing"), ("state_stopped", "stopped"),
            ]
        }

        /// A door lock: `locked`/`unlocked`/`jammed` on the state topic, `lock`/`unlock` on `/set`.
        static func lock(_ topics: TopicScheme.Device) -> [(String, JSONValue)] {
            [
                ("state_topic", .string(topics.state)), ("command_topic", .string(topics.set)),
                ("payload_lock", "lock"), ("payload_unlock", "unlock"), ("state_locked", "locked"),
                ("state_unlocked", "unlocked"), ("state_jammed", "jammed"),
            ]
        }

        static func onOffSwitch(_ topics: TopicScheme.Device, outlet: Bool) -> [(String, JSONValue)] {
            var fields: [(String, JSONValue)] = [
                ("state_topic", .string(topics.state)), ("command_topic", .string(topics.set)),
                ("payload_on", "on"), ("payload_off", "off"), ("state_on", "on"), ("state_off", "off"),
            ]
            if outlet { fields.append(("device_class", "outlet")) }
            return fields
        }

        static func sensor(_ topic: String, _ deviceClass: String, _ stateClass: String, _ unit: String)
            -> [(String, JSONValue)]
        {
            [
                ("state_topic", .string(topic)), ("device_class", .string(deviceClass)),
                ("state_class", .string(stateClass)), ("unit_of_measurement", .string(unit)),
            ]
        }

        /// The scene activations as events: `button_2_short_press` for S2's single click (scene 26).
        static func sceneEvent(_ topic: String, _ triggers: [(scene: Int, type: String, subtype: String)])
            -> [(String, JSONValue)]
        {
            let names = triggers.map {
                (String($0.scene), "\($0.subtype)_\($0.type.dropFirst(7))")
            }
            let table = names.map { "'\($0.0)': '\($0.1)'" }.joined(separator: ", ")
            return [
                ("state_topic", .string(topic)), ("event_types", .array(names.map { .string($0.1) })),
                (
                    "value_template",
                    .string(
                        "{% set types = {\(table)} %}"
                            + "{{ {'event_type': types[value]} | tojson if value in types else '' }}")
                ),
            ]
        }

        /// A scene button's actions as events: the topic's bare word (`pressed`, `held`) becomes the JSON Home
        /// Assistant's event platform reads (`{"event_type": "pressed"}`); a word the button does not support is
        /// ignored (an empty payload).
        static func buttonEvent(_ topic: String, _ actions: [ButtonAction]) -> [(String, JSONValue)] {
            let words = actions.sorted().map(\.rawValue)
            let list = words.map { "'\($0)'" }.joined(separator: ", ")
            return [
                ("state_topic", .string(topic)), ("event_types", .array(words.map { .string($0) })),
                ("value_template", .string("{{ {'event_type': value} | tojson if value in [\(list)] else '' }}")),
            ]
        }

        // MARK: CEC

        /// A CEC TV: power, input, and the audio system's volume and mute on the TV's topics.
        func cec(_ member: BridgeInventory.Device, logicalAddress: Int) -> [DiscoveryConfig] {
            let descriptor = member.descriptor
            let id = "\(bridgeNode)_cec_\(logicalAddress)"
            let block = device(
                id: id, name: humanized(descriptor.address), manufacturer: member.facts["vendor"],
                model: logicalAddress == 0 ? "HDMI-CEC TV" : "HDMI-CEC device")
            let topics = identity.topics.device(descriptor.address)
            func add(_ component: String, _ role: String, _ name: String?, _ fields: [(String, JSONValue)])
                -> DiscoveryConfig
            {
                entity(
                    component, node: bridgeNode, id: "\(id)_\(role)", name: name, address: descriptor.address,
                    device: block, fields)
            }
            var configs = [
                add(
                    "switch", "power", nil,
                    [
                        ("state_topic", .string(topics.state)),
                        ("value_template", "{{ value if value in ['on', 'standby'] else 'None' }}"),
                        ("command_topic", .string(topics.set)), ("payload_on", "on"), ("payload_off", "off"),
                        ("state_on", "on"), ("state_off", "standby"),
                    ])
            ]
            let inputs = descriptor.inputs.keys.sorted()
            if !inputs.isEmpty {
                let list = inputs.map { "'\($0)'" }.joined(separator: ", ")
                configs.append(
                    add(
                        "select", "input", "Input",
                        [
                            ("state_topic", .string(topics.input)),
                            ("value_template", .string("{{ value if value in [\(list)] else 'None' }}")),
                            ("command_topic", .string(topics.inputSet)),
                            ("options", .array(inputs.map { .string($0) })),
                        ]))
            }
            configs += [
                add(
                    "number", "volume", "Volume",
                    [
                        ("state_topic", .string(topics.volume)), ("command_topic", .string(topics.volumeSet)),
                        ("command_template", "{{ value | round(0) | int }}"), ("min", 0), ("max", 100), ("step", 1),
                        ("mode", "slider"),
                    ]),
                add(
                    "switch", "mute", "Mute",
                    [
                        ("state_topic", .string(topics.mute)), ("command_topic", .string(topics.muteSet)),
                        ("payload_on", "on"), ("payload_off", "off"), ("state_on", "on"), ("state_off", "off"),
                    ]),
                add(
                    "button", "volume_up", "Volume up",
                    [("command_topic", .string(topics.volumeSet)), ("payload_press", "up")]),
                add(
                    "button", "volume_down", "Volume down",
                    [("command_topic", .string(topics.volumeSet)), ("payload_press", "down")]),
            ]
            return configs
        }
    }

    /// `living/tv_lamp` → `Living tv lamp`.
    static func humanized(_ address: DeviceAddress) -> String {
        let words = "\(address.room) \(address.name)".map { $0 == "_" || $0 == "-" ? " " : $0 }
        let text = String(words)
        return text.prefix(1).uppercased() + text.dropFirst()
    }
}
