import BridgeCore
import BridgeDaemon
import FoundationEssentials
internal import Glibc
import Logging
import MQTTDriver

/// A short-lived MQTT connection from the CLI to a running bridge: checks that the bridge is online (its
/// retained `<prefix>/bridge/<bridge>/state`) and sends requests (`.../request/<command>` with a
/// transaction id), waiting for the matching `.../response/<command>` while passing `.../event` on.
actor BridgeConnection {
    let topics: TopicScheme
    let bridge: String
    let broker: String
    let client: MQTTClient
    private var state: String?
    private var responses: [String: JSONValue] = [:]
    private var eventHandler: (@Sendable (JSONValue) -> Void)?
    /// Why the first connection attempt failed (the broker refused or is not there).
    private var connectFailure: String?

    /// How long the broker connection and the bridge's retained state may take.
    static let connectTimeout: Duration = .milliseconds(2500)
    static let stateTimeout: Duration = .milliseconds(1500)
    static let pollInterval: Duration = .milliseconds(20)

    private init(configuration: BridgeConfiguration, client: MQTTClient) {
        topics = configuration.topics
        bridge = configuration.bridge.name
        broker = "\(configuration.mqtt.host):\(configuration.mqtt.port)"
        self.client = client
    }

    /// Connects, checks the bridge is online, runs `body`, disconnects.
    static func with<T: Sendable>(
        _ configuration: BridgeConfiguration, _ body: (BridgeConnection) async throws -> T
    ) async throws -> T {
        var options: MQTTClientOptions
        do {
            options = try Composition.mqttOptions(configuration)
        } catch {
            throw ClientError.configuration("cannot read the MQTT credentials: \(error)")
        }
        options.clientID = "thuis-bridge-cli-\(configuration.bridge.name)-\(getpid())"
        options.will = nil
        options.reconnectDelayMin = .milliseconds(250)
        options.reconnectDelayMax = .seconds(1)
        let quiet = Logger(label: "thuis-bridge-cli") { _ in SwiftLogNoOpLogHandler() }
        let client: MQTTClient
        do {
            client = try MQTTClient(options: options, logger: quiet)
        } catch {
            throw ClientError.configuration("invalid MQTT settings: \(error)")
        }
        let connection = BridgeConnection(configuration: configuration, client: client)
        let topics = configuration.topics
        try await client.subscribe(topics.bridgeState, qos: .atLeastOnce)
        try await client.subscribe(topics.bridgeEvent, qos: .atLeastOnce)
        try await client.subscribe(topics.bridgeBase + "/response/+", qos: .atLeastOnce)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try? await client.run() }
            group.addTask {
                for await event in client.connectionEvents {
                    if case .connectFailed(let error, _) = event { await connection.noteConnectFailure("\(error)") }
                }
            }
            group.addTask {
                for await inbound in client.inbound {
                    if case .message(let message) = inbound { await connection.deliver(message) }
                }
            }
            let result: Result<T, any Error>
            do {
                try await connection.ensureOnline()
                result = .success(try await body(connection))
            } catch {
                result = .failure(error)
            }
            await client.shutdown(timeout: .seconds(1))
            group.cancelAll()
            return try result.get()
        }
    }

    func deliver(_ message: MQTTMessage) {
        if message.topic == topics.bridgeState {
            state = message.text
        } else if message.topic == topics.bridgeEvent {
            if let event = try? JSONValue.parse(message.payload) { eventHandler?(event) }
        } else if message.topic.hasPrefix(topics.bridgeBase + "/response/"),
            let response = try? JSONValue.parse(message.payload),
            case .string(let transaction)? = response["transaction"]
        {
            responses[transaction] = response
        }
    }

    func noteConnectFailure(_ reason: String) {
        if connectFailure == nil { connectFailure = reason }
    }

    /// Waits for the broker connection and the bridge's retained `online`.
    func ensureOnline() async throws {
        let clock = ContinuousClock()
        let connectDeadline = clock.now.advanced(by: Self.connectTimeout)
        while !(await client.subscriptionsAcknowledged) {
            if let connectFailure {
                throw ClientError.brokerUnreachable(bridge: bridge, broker: broker, reason: connectFailure)
            }
            guard clock.now < connectDeadline else {
                throw ClientError.brokerUnreachable(
                    bridge: bridge, broker: broker, reason: "no connection within \(Self.connectTimeout)")
            }
            try await Task.sleep(for: Self.pollInterval)
        }
        let stateDeadline = clock.now.advanced(by: Self.stateTimeout)
        while state != "online", clock.now < stateDeadline {
            try await Task.sleep(for: Self.pollInterval)
        }
        guard state == "online" else {
            throw ClientError.bridgeNotRunning(bridge: bridge, broker: broker, state: state)
        }
    }

    /// Sends `command` and waits (at most `timeout`) for its response; `onEvent` sees every bridge event
    /// meanwhile. Returns the response's `data`; an `error` response throws `ClientError.failed`.
    func request(
        _ command: String, _ arguments: [(String, JSONValue)] = [], timeout: Duration = .seconds(10),
        onEvent: (@Sendable (JSONValue) -> Void)? = nil
    ) async throws -> JSONValue {
        let transaction = String(UUID().uuidString.prefix(8)).lowercased()
        eventHandler = onEvent
        defer { eventHandler = nil }
        let payload = JSONValue.object([("transaction", .string(transaction))] + arguments).serialized
        try await client.publish(
            topic: topics.request(command), payload: Array(payload.utf8), retain: false, qos: .atLeastOnce)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while responses[transaction] == nil {
            guard state == "online" else { throw ClientError.bridgeWentOffline(bridge: bridge, broker: broker) }
            guard clock.now < deadline else {
                throw ClientError.noResponse(bridge: bridge, broker: broker, command: command, after: timeout)
            }
            try await Task.sleep(for: Self.pollInterval)
        }
        let response = responses.removeValue(forKey: transaction) ?? .null
        guard case .string("ok")? = response["status"] else {
            var reason = "the bridge answered \(response.serialized)"
            if case .string(let text)? = response["error"] { reason = text }
            throw ClientError.failed(command: command, reason: reason)
        }
        return response["data"] ?? .null
    }
}
