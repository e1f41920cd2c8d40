public import BridgeCore

/// What a dashboard may send over its WebSocket, by role (DocC: Security). Pure: the connection asks before it hands
/// a message to the bridge, and answers a refusal with an `error` reply naming why.
public enum DashboardPolicy {
    /// Why a `set` on `topic` is refused (any role), nil when it is a device command (`/set`, `/get`, `volume/set`,
    /// `mute/set`, `input/set`) of a device in this bridge's `registry`. Everything else a dashboard could publish
    /// on MQTT (a bridge's state, a device's availability, another bridge's devices, requests) is not a command.
    public static func refusal(ofSet topic: String, topics: TopicScheme, registry: DeviceRegistry) -> String? {
        let address: DeviceAddress
        switch topics.route(topic) {
        case .success(.deviceSet(let device)), .success(.deviceGet(let device)), .success(.volumeSet(let device)),
            .success(.muteSet(let device)), .success(.inputSet(let device)):
            address = device
        case .success(.bridgeRequest):
            return "a set takes a device command topic; send requests as {\"type\": \"request\"}"
        case .success(.bridgeState(let bridge)):
            return "a set takes a device command topic, not bridge \"\(bridge)\"'s state: only that bridge publishes it"
        case .success(.deviceAvailability(let device)):
            return "a set takes a device command topic, not \(device)'s availability: only its bridge publishes it"
        case .failure(let error):
            return "a set takes a device command topic of this bridge's devices: \(error.description)"
        }
        guard registry.device(at: address) != nil else {
            return
                "\(address) is not a device of this bridge (\(topics.bridge)): its dashboard commands its own devices "
                + "only"
        }
        return nil
    }

    /// Why `role` may not send bridge request `verb`, nil when it may: every request is the admin's.
    public static func refusal(ofRequest verb: String, role: DashboardRole) -> String? {
        guard role == .admin else {
            return "refused: \(verb.prefix(64)) is a bridge request, and bridge requests need the admin token (this "
                + "dashboard has the control token: it switches devices only)"
        }
        return nil
    }
}
