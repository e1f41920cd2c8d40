/// The topics a configuration serves, as `thuis-bridge check-config` prints them: one row per device
/// (sorted by room and name), the scene mappings, the bridge's own topics and its subscriptions.
public struct TopicTable: Sendable, CustomStringConvertible {
    /// One mapped device.
    public struct DeviceRow: Sendable, Equatable {
        public let address: DeviceAddress
        /// `zwave` (the kind, dimmer/switch/socket, comes from the interview), `tv`, `audio` or `cec`.
        public let kind: String
        public let source: DeviceSource
        /// The state topic first, then every other topic the device may use.
        public let topics: [String]
    }

    /// One `[[zwave.scene]]` mapping.
    public struct SceneRow: Sendable, Equatable {
        /// `zwave node 2 scene 26` or `zwave node 3 instance 1 scene 10`.
        public let trigger: String
        public let topic: String
        public let payload: String
    }

    public let devices: [DeviceRow]
    public let scenes: [SceneRow]
    /// The bridge's own topics with what they carry.
    public let bridgeTopics: [(topic: String, note: String)]
    /// The filters the bridge subscribes to.
    public let subscriptions: [String]

    public init(_ configuration: BridgeConfiguration) {
        let names = configuration.topics
        let zwaveRows = (configuration.zwave?.devices ?? []).map { device in
            let topics = names.device(device.address)
            return DeviceRow(
                address: device.address, kind: "zwave", source: device.source,
                topics: [
                    topics.state, topics.set, topics.get, topics.availability, topics.power, topics.energy,
                    topics.scene,
                ])
        }
        let cecRows = (configuration.cec?.devices ?? []).map { device in
            let topics = names.device(device.address)
            let kind =
                switch device.logicalAddress {
                case 0: "tv"
                case 5: "audio"
                default: "cec"
                }
            return DeviceRow(
                address: device.address, kind: kind, source: device.source,
                topics: [
                    topics.state, topics.set, topics.get, topics.availability, topics.volume, topics.volumeSet,
                    topics.mute, topics.muteSet, topics.input, topics.inputSet,
                ])
        }
        devices = (zwaveRows + cecRows).sorted { $0.address < $1.address }
        let sceneRows = (configuration.zwave?.scenes ?? []).map { scene in
            let trigger = DeviceSource.zwave(node: scene.node, instance: scene.instance).description
            return SceneRow(trigger: "\(trigger) scene \(scene.scene)", topic: scene.topic, payload: scene.payload)
        }
        // `[[zwave.button]]` mappings: a button's action publishes like a scene.
        scenes =
            sceneRows
            + (configuration.zwave?.buttons ?? []).map { mapping in
                let trigger = DeviceSource.zwave(node: mapping.node, instance: mapping.instance).description
                return SceneRow(
                    trigger: "\(trigger) button \(mapping.button) \(mapping.action.rawValue)", topic: mapping.topic,
                    payload: mapping.payload)
            }
        bridgeTopics = [
            (names.bridgeState, "retained: online, offline (last will)"),
            (names.bridgeDevices, "retained: JSON inventory of nodes and CEC devices"),
            (names.bridgeEvent, "JSON events"),
            (names.request("<command>"), "requests from clients (include, exclude, devices, ...)"),
            (names.response("<command>"), "responses"),
        ]
        subscriptions = names.peerSubscriptions + names.subscriptions
    }

    /// The printed table.
    public var description: String {
        var out: [String] = []
        if devices.isEmpty {
            out.append("No devices mapped.")
        } else {
            out += Self.columns(
                [["DEVICE", "KIND", "SOURCE", "STATE TOPIC", "ALSO"]]
                    + devices.map { row in
                        let state = row.topics.first ?? ""
                        let also = row.topics.dropFirst().map {
                            $0.hasPrefix(state) ? String($0.dropFirst(state.count)) : $0
                        }
                        return [
                            row.address.description, row.kind, row.source.description, state,
                            also.joined(separator: " "),
                        ]
                    })
            if devices.contains(where: { $0.kind == "zwave" }) {
                out.append(
                    "Z-Wave kinds (dimmer, switch, socket) come from the interview; "
                        + "/power and /energy appear for metered devices.")
            }
        }
        if !scenes.isEmpty {
            out.append("")
            out += Self.columns(
                [["SCENE", "PUBLISHES TO", "PAYLOAD"]] + scenes.map { [$0.trigger, $0.topic, $0.payload] })
        }
        out.append("")
        out += Self.columns([["BRIDGE TOPIC", ""]] + bridgeTopics.map { [$0.topic, $0.note] })
        out.append("")
        out.append("SUBSCRIBES TO")
        out += subscriptions
        return out.joined(separator: "\n")
    }

    /// Left-aligned columns separated by two spaces, without trailing spaces.
    private static func columns(_ rows: [[String]]) -> [String] {
        let count = rows.map(\.count).max() ?? 0
        let widths = (0..<count).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                let isLast = column == row.count - 1
                line += isLast ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
