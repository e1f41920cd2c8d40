/// Why a client command could not do its work; `exitCode` follows the CLI's convention (1 failed or timed
/// out, 2 usage or configuration error).
enum ClientError: Error, CustomStringConvertible {
    case configuration(String)
    case brokerUnreachable(bridge: String, broker: String, reason: String)
    case bridgeNotRunning(bridge: String, broker: String, state: String?)
    case noResponse(bridge: String, broker: String, command: String, after: Duration)
    case bridgeWentOffline(bridge: String, broker: String)
    case failed(command: String, reason: String)
    case interrupted

    var exitCode: Int32 {
        switch self {
        case .configuration: 2
        default: 1
        }
    }

    var description: String {
        switch self {
        case .configuration(let text):
            text
        case .brokerUnreachable(let bridge, let broker, let reason):
            "cannot reach the MQTT broker at \(broker) to talk to bridge \"\(bridge)\": \(reason)"
        case .bridgeNotRunning(let bridge, let broker, let state):
            "bridge \"\(bridge)\" is not running: no bridge answered on broker \(broker) (bridge state: \(state ?? "never published"))"
        case .noResponse(let bridge, let broker, let command, let after):
            "bridge \"\(bridge)\" on broker \(broker) did not answer \"\(command)\" within \(after)"
        case .bridgeWentOffline(let bridge, let broker):
            "bridge \"\(bridge)\" on broker \(broker) went offline before it answered"
        case .failed(let command, let reason):
            "\(command) failed: \(reason)"
        case .interrupted:
            "interrupted"
        }
    }
}
