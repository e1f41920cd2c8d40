/// Which front end submitted a device command (`Bridge.submit(_:to:from:)`): logged with every refusal.
public enum CommandOrigin: Sendable, Equatable, CustomStringConvertible {
    /// An MQTT `/set`, `/get`, `volume/set`, `mute/set` or `input/set` message.
    case mqtt
    /// A dashboard's WebSocket `set` (the connection's client number).
    case dashboard(client: Int)
    /// A HomeKit controller's characteristic write.
    case homeKit

    public var description: String {
        switch self {
        case .mqtt: "mqtt"
        case .dashboard(let client): "dashboard client \(client)"
        case .homeKit: "homekit"
        }
    }
}

/// Why the bridge did not take a device command: the reason its `command_rejected` event publishes.
public struct CommandRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
