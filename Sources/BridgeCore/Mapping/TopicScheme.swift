/// Every MQTT topic of one bridge instance (MQTT-CONTRACT.md), built in one place, and the one parser for the
/// topics the bridge receives.
///
/// `prefix` may have several levels (`home/Thuis`); `bridge`, rooms and names are single levels matching
/// `[A-Za-z0-9_-]+` (the configuration loader validates them with ``isValidLevel(_:)``).
public struct TopicScheme: Sendable, Hashable {
    /// The topic prefix, `Thuis` by default.
    public let prefix: String
    /// The bridge instance name (`[bridge] name`).
    public let bridge: String

    public init(prefix: String, bridge: String) {
        self.prefix = prefix
        self.bridge = bridge
    }

    // MARK: Devices

    /// The room under which nodes that are not in devices.toml appear.
    public static let unassignedRoom = "unassigned"

    /// The topics of the device at `address`: `<prefix>/device/<room>/<name>...`.
    public func device(_ address: DeviceAddress) -> Device {
        Device(base: "\(prefix)/device/\(address.room)/\(address.name)")
    }

    /// The topics of the device in `room` called `name`.
    public func device(room: String, name: String) -> Device {
        device(DeviceAddress(room: room, name: name))
    }

    /// Where a Z-Wave node that is not in devices.toml appears: `unassigned/node<N>`, or
    /// `unassigned/node<N>_<instance>` for one endpoint of a multi-channel device.
    public static func unassignedAddress(node: Int, instance: Int?) -> DeviceAddress {
        let name = instance.map { "node\(node)_\($0)" } ?? "node\(node)"
        return DeviceAddress(room: unassignedRoom, name: name)
    }

    /// The topics of an unassigned node (see ``unassignedAddress(node:instance:)``).
    public func unassigned(node: Int, instance: Int?) -> Device {
        device(Self.unassignedAddress(node: node, instance: instance))
    }

    /// The topics of one device, all derived from `<prefix>/device/<room>/<name>`.
    public struct Device: Sendable, Hashable {
        /// `<prefix>/device/<room>/<name>`.
        public let base: String

        /// Retained state (`on`/`off`, `0`..`99`, `on`/`standby`/`unknown`).
        public var state: String { base }
        /// Commands from clients (never retained).
        public var set: String { "\(base)/set" }
        /// Re-read request from clients.
        public var get: String { "\(base)/get" }
        /// Retained watts of metered devices.
        public var power: String { "\(base)/power" }
        /// Retained kWh of metered devices.
        public var energy: String { "\(base)/energy" }
        /// Retained `online`/`offline`.
        public var availability: String { "\(base)/availability" }
        /// Scene activation events (not retained).
        public var scene: String { "\(base)/scene" }
        /// A scene button's actions (not retained): `<base>/button/<n>`.
        public func button(_ number: Int) -> String { "\(base)/button/\(number)" }
        /// Retained TV/AVR volume `0`..`100`.
        public var volume: String { "\(base)/volume" }
        public var volumeSet: String { "\(base)/volume/set" }
        /// Retained `on`/`off`.
        public var mute: String { "\(base)/mute" }
        public var muteSet: String { "\(base)/mute/set" }
        /// Retained active input name or physical address.
        public var input: String { "\(base)/input" }
        public var inputSet: String { "\(base)/input/set" }

        /// Retained `opening`/`closing`/`stopped` of a cover.
        public var movement: String { "\(base)/movement" }

        /// A thermostat's retained heating setpoint, mode and operating state, and the setpoint's and mode's commands.
        public var setpoint: String { "\(base)/setpoint" }
        public var setpointSet: String { "\(base)/setpoint/set" }
        public var mode: String { "\(base)/mode" }
        public var modeSet: String { "\(base)/mode/set" }
        public var operatingState: String { "\(base)/operating_state" }

        /// Retained reading of one sensor: `<base>/temperature`, `<base>/motion`, `<base>/battery`...
        public func sensor(_ sensor: Sensor) -> String { "\(base)/\(sensor.rawValue)" }

        /// Every retained topic a device may own (to clear when the device goes away), its sensors' aside.
        public var retained: [String] {
            [state, availability, power, energy, volume, mute, input, movement, setpoint, mode, operatingState]
        }
    }

    // MARK: Bridge

    /// `<prefix>/bridge/<bridge>`.
    public var bridgeBase: String { "\(prefix)/bridge/\(bridge)" }
    /// Retained `online`; the last will sets `offline`.
    public var bridgeState: String { "\(bridgeBase)/state" }
    /// Retained JSON: which process runs the bridge (host, pid, start), so that a second one with the same name
    /// can tell who has it.
    public var bridgeInfo: String { "\(bridgeBase)/info" }
    /// Retained JSON inventory.
    public var bridgeDevices: String { "\(bridgeBase)/devices" }
    /// JSON events (not retained).
    public var bridgeEvent: String { "\(bridgeBase)/event" }
    /// Where clients send `command`.
    public func request(_ command: String) -> String { "\(bridgeBase)/request/\(command)" }
    /// Where the bridge answers `command`.
    public func response(_ command: String) -> String { "\(bridgeBase)/response/\(command)" }

    /// The filters of the commands the bridge subscribes to: device `/set` and `/get`, the `volume|mute|input/set`
    /// commands, and its own requests.
    public var subscriptions: [String] {
        [
            "\(prefix)/device/+/+/set", "\(prefix)/device/+/+/get", "\(prefix)/device/+/+/+/set",
            "\(bridgeBase)/request/+",
        ]
    }

    /// The filters through which the bridge knows the other bridges on the broker: which are online (their
    /// retained `state`) and which devices they serve (their devices' retained `availability`).
    public var peerSubscriptions: [String] {
        ["\(prefix)/bridge/+/state", "\(prefix)/device/+/+/availability"]
    }

    // MARK: Validation

    /// Whether `level` is one topic level the bridge names things with: `[A-Za-z0-9_-]+`.
    public static func isValidLevel(_ level: some StringProtocol) -> Bool {
        !level.isEmpty && level.utf8.allSatisfy(isLevelByte)
    }

    /// Whether `prefix` is one or more `/`-separated valid levels (no wildcards, no empty level).
    public static func isValidPrefix(_ prefix: String) -> Bool {
        prefix.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { isValidLevel($0) }
    }

    private static func isLevelByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    // MARK: Inbound topics

    /// The longest topic MQTT allows (bytes of UTF-8).
    public static let maximumTopicLength = 65_535

    /// The longest bridge name, room or device name devices.toml may give (characters), and the longest prefix:
    /// every topic the bridge uses stays far below ``maximumTopicLength`` (a longer one could not be published).
    public static let maximumLevelLength = 64
    public static let maximumPrefixLength = 128

    /// A topic the bridge acts on.
    public enum Inbound: Sendable, Hashable {
        case deviceSet(DeviceAddress)
        case deviceGet(DeviceAddress)
        case volumeSet(DeviceAddress)
        case muteSet(DeviceAddress)
        case inputSet(DeviceAddress)
        /// A thermostat's `setpoint/set` and `mode/set`.
        case setpointSet(DeviceAddress)
        case modeSet(DeviceAddress)
        /// `<prefix>/bridge/<bridge>/request/<command>` for this bridge.
        case bridgeRequest(command: String)
        /// `<prefix>/bridge/<bridge>/state` of any bridge (this one too): which bridges are online.
        case bridgeState(bridge: String)
        /// `<prefix>/device/<room>/<name>/availability` of any device: a device some bridge serves.
        case deviceAvailability(DeviceAddress)
    }

    /// Why a topic is not one the bridge acts on.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Reason: Sendable, Equatable {
            case empty
            case tooLong(bytes: Int)
            case wrongPrefix
            case emptyLevel
            /// A level with characters outside `[A-Za-z0-9_-]` (wildcards, spaces...).
            case invalidLevel(String)
            /// Neither `device` nor `bridge` after the prefix.
            case unknownSection(String)
            /// A request addressed to another bridge instance.
            case otherBridge(String)
            case tooFewLevels
            case tooManyLevels
            /// A device topic that is not a command (`/power`, `/volume/get`...).
            case unknownSuffix(String)
        }

        public let topic: String
        public let reason: Reason
        /// The device the topic is under (`<prefix>/device/<room>/<name>/...` with a valid room and name,
        /// whatever follows them), nil for any other topic: whose device a malformed command was for.
        public let device: DeviceAddress?

        public init(topic: String, reason: Reason, device: DeviceAddress? = nil) {
            self.topic = topic
            self.reason = reason
            self.device = device
        }

        public var description: String {
            let shown = topic.count > 80 ? "\(topic.prefix(80))..." : topic
            return "\(Self.describe(reason)) in topic \"\(shown)\""
        }

        private static func describe(_ reason: Reason) -> String {
            switch reason {
            case .empty: "empty topic"
            case .tooLong(let bytes): "topic too long (\(bytes) bytes, at most \(TopicScheme.maximumTopicLength))"
            case .wrongPrefix: "wrong prefix"
            case .emptyLevel: "empty level"
            case .invalidLevel(let level): "level \"\(level.prefix(40))\" is not [A-Za-z0-9_-]+"
            case .unknownSection(let section): "unknown section \"\(section.prefix(40))\" (expected device or bridge)"
            case .otherBridge(let bridge): "request for another bridge \"\(bridge.prefix(40))\""
            case .tooFewLevels: "too few levels"
            case .tooManyLevels: "too many levels"
            case .unknownSuffix(let suffix):
                "unknown suffix \"\(suffix.prefix(40))\" (expected set, get, volume/set, mute/set, input/set, "
                    + "setpoint/set or mode/set)"
            }
        }
    }

    /// ``parseInbound(_:)`` as a `Result`, for a message that is handed on with its parsed topic.
    public func route(_ topic: String) -> Result<Inbound, ParseError> {
        Result { () throws(ParseError) in try parseInbound(topic) }
    }

    /// Parses a topic the bridge received. Never traps, whatever the input.
    /// - Throws: ``ParseError`` naming the reason for anything that is not a command topic of this bridge.
    public func parseInbound(_ topic: String) throws(ParseError) -> Inbound {
        var device: DeviceAddress?
        func fail(_ reason: ParseError.Reason) -> ParseError {
            ParseError(topic: topic, reason: reason, device: device)
        }

        let bytes = topic.utf8.count
        guard bytes > 0 else { throw fail(.empty) }
        guard bytes <= Self.maximumTopicLength else { throw fail(.tooLong(bytes: bytes)) }
        guard topic.utf8.starts(with: (prefix + "/").utf8) else { throw fail(.wrongPrefix) }

        let levels = topic.utf8.dropFirst(prefix.utf8.count + 1)
            .split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        if levels.count >= 3, levels[0] == "device", Self.isValidLevel(levels[1]), Self.isValidLevel(levels[2]) {
            device = DeviceAddress(room: levels[1], name: levels[2])
        }
        // Deepest command: device/<room>/<name>/<volume|mute|input>/set (5 levels); stop early on longer ones.
        guard levels.count <= 5 else { throw fail(.tooManyLevels) }
        for level in levels {
            guard !level.isEmpty else { throw fail(.emptyLevel) }
            guard Self.isValidLevel(level) else { throw fail(.invalidLevel(level)) }
        }
        guard let section = levels.first else { throw fail(.tooFewLevels) }

        switch section {
        case "bridge":
            if levels.count == 3, levels[2] == "state" { return .bridgeState(bridge: levels[1]) }
            guard levels.count >= 4 else { throw fail(.tooFewLevels) }
            guard levels.count == 4 else { throw fail(.tooManyLevels) }
            guard levels[1] == bridge else { throw fail(.otherBridge(levels[1])) }
            guard levels[2] == "request" else { throw fail(.unknownSuffix(levels[2])) }
            return .bridgeRequest(command: levels[3])
        case "device":
            guard levels.count >= 4 else { throw fail(.tooFewLevels) }
            let address = DeviceAddress(room: levels[1], name: levels[2])
            let suffix = levels[3...].joined(separator: "/")
            switch suffix {
            case "set": return .deviceSet(address)
            case "get": return .deviceGet(address)
            case "volume/set": return .volumeSet(address)
            case "mute/set": return .muteSet(address)
            case "input/set": return .inputSet(address)
            case "setpoint/set": return .setpointSet(address)
            case "mode/set": return .modeSet(address)
            case "availability": return .deviceAvailability(address)
            default: throw fail(.unknownSuffix(suffix))
            }
        default:
            throw fail(.unknownSection(section))
        }
    }
}
