/// The topics of one bridge instance (see MQTT-CONTRACT.md) and the parser for inbound topics.
struct BridgeTopics: Sendable {
    let prefix: String
    let bridge: String

    var bridgeBase: String { "\(prefix)/bridge/\(bridge)" }
    var bridgeState: String { "\(bridgeBase)/state" }
    var bridgeDevices: String { "\(bridgeBase)/devices" }
    var bridgeEvent: String { "\(bridgeBase)/event" }
    func response(_ command: String) -> String { "\(bridgeBase)/response/\(command)" }

    /// What the bridge subscribes to.
    var subscriptions: [String] {
        [
            "\(prefix)/device/+/+/set", "\(prefix)/device/+/+/get", "\(prefix)/device/+/+/+/set",
            "\(bridgeBase)/request/+",
        ]
    }

    func device(_ address: DeviceAddress) -> DeviceTopics {
        DeviceTopics(base: "\(prefix)/device/\(address.room)/\(address.name)")
    }

    /// Parses an inbound topic. Throws the reason for anything that is not a command topic of this bridge.
    func parse(_ topic: String) throws(TopicError) -> InboundTopic {
        guard topic.hasPrefix(prefix + "/") else { throw TopicError("topic is outside prefix \(prefix)") }
        let rest = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard rest.allSatisfy({ !$0.isEmpty }) else { throw TopicError("topic has an empty level") }
        if rest.count == 4, rest[0] == "bridge", rest[1] == bridge, rest[2] == "request" {
            return .request(String(rest[3]))
        }
        guard rest.first == "device" else { throw TopicError("not a device or bridge request topic") }
        let address = rest.count >= 3 ? DeviceAddress(room: String(rest[1]), name: String(rest[2])) : nil
        switch (rest.count, address) {
        case (4, let address?):
            switch rest[3] {
            case "set": return .device(address, .set)
            case "get": return .device(address, .get)
            default: break
            }
        case (5, let address?) where rest[4] == "set":
            if let action = InboundTopic.Action(rawValue: String(rest[3])), action != .set, action != .get {
                return .device(address, action)
            }
        default: break
        }
        throw TopicError("not a command topic (expected <device>/set, /get, /volume/set, /mute/set or /input/set)")
    }
}

/// The topics of one device.
struct DeviceTopics: Sendable {
    let base: String
    var state: String { base }
    var availability: String { "\(base)/availability" }
    var power: String { "\(base)/power" }
    var energy: String { "\(base)/energy" }
    var scene: String { "\(base)/scene" }
    var volume: String { "\(base)/volume" }
    var mute: String { "\(base)/mute" }
    var input: String { "\(base)/input" }
    /// Every retained topic a device may own (cleared when the device is removed).
    var retained: [String] { [state, availability, power, energy, volume, mute, input] }
}

/// A parsed inbound topic.
enum InboundTopic: Sendable, Equatable {
    case device(DeviceAddress, Action)
    case request(String)

    enum Action: String, Sendable {
        case set, get
        case volumeSet = "volume"
        case muteSet = "mute"
        case inputSet = "input"
    }
}

/// Why a topic is not one the bridge serves.
struct TopicError: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
