public import BridgeCore

/// What a dashboard may send over its WebSocket, by role (DocC: Security). Pure: the connection asks before it hands
/// a message to the bridge, and answers a refusal with an `error` reply naming why.
public enum DashboardPolicy {
    /// The device a `set` on `topic` commands and how its topic routes (parsed once, here), or why the `set` is
    /// refused (any role): it must be a device command topic (`/set`, `/get`, `volume/set`, `mute/set`, `input/set`)
    /// of a device in this bridge's `registry`. Everything else a dashboard could publish on MQTT (a bridge's state,
    /// a device's availability, another bridge's devices, requests) is not a command.
    public static func target(ofSet topic: String, topics: TopicScheme, registry: DeviceRegistry)
        -> Result<SetTarget, SetRefusal>
    {
        let route: TopicScheme.Inbound
        let address: DeviceAddress
        switch topics.route(topic) {
        case .success(let parsed):
            switch parsed {
            case .deviceSet(let device), .deviceGet(let device), .volumeSet(let device), .muteSet(let device),
                .inputSet(let device), .setpointSet(let device), .modeSet(let device):
                (route, address) = (parsed, device)
            case .bridgeRequest:
                return .failure(
                    SetRefusal("a set takes a device command topic; send requests as {\"type\": \"request\"}"))
            case .bridgeState(let bridge):
                return .failure(
                    SetRefusal(
                        "a set takes a device command topic, not bridge \"\(bridge)\"'s state: only that bridge publishes it"
                    ))
            case .deviceAvailability(let device):
                return .failure(
                    SetRefusal(
                        "a set takes a device command topic, not \(device)'s availability: only its bridge publishes it"
                    ))
            }
        case .failure(let error):
            return .failure(
                SetRefusal("a set takes a device command topic of this bridge's devices: \(error.description)"))
        }
        guard let device = registry.device(at: address) else {
            return .failure(
                SetRefusal(
                    "\(address) is not a device of this bridge (\(topics.bridge)): its dashboard commands its own devices "
                        + "only"))
        }
        return .success(SetTarget(route: route, device: device))
    }

    /// What a `set` that may be sent commands: its topic's route and the device.
    public struct SetTarget: Sendable {
        public let route: TopicScheme.Inbound
        public let device: DeviceDescriptor
    }

    /// Why a dashboard's `set` is refused before it reaches the bridge: sent back to the dashboard as an `error`.
    public struct SetRefusal: Error, Sendable, Equatable {
        public let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Why `role` may not send device `command`, nil when it may: unlocking a door lock is the admin's; the wall
    /// tablet (control) may lock it, and sends every other command.
    public static func refusal(ofCommand command: DeviceCommand, role: DashboardRole) -> String? {
        guard command == .setLocked(false), role != .admin else { return nil }
        return "refused: unlocking a door needs the admin token (this dashboard has the control token: it may lock, "
            + "not unlock)"
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
