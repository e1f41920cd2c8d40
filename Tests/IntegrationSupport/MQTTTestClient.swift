import Foundation
public import Logging
public import MQTTDriver
import TestSupport

/// A test-side MQTT client on `MQTTClient`: connects to a broker, records everything it receives and waits
/// for messages. Close it with `await close()` (in a `defer`-like path of the test).
public final class MQTTTestClient: Sendable {
    public let client: MQTTClient
    public let recorder = MessageRecorder()
    private let runTask: Task<Void, Never>
    private let recordTask: Task<Void, Never>
    private let eventTask: Task<Void, Never>

    /// Creates the client and starts it (it keeps reconnecting in the background).
    /// `configure` may adjust the options (TLS, credentials, will...).
    public init(
        port: Int, host: String = "127.0.0.1", clientID: String? = nil,
        logger: Logger = Logger(label: "test.mqtt"),
        configure: (inout MQTTClientOptions) -> Void = { _ in }
    ) throws {
        let clientID = clientID ?? "test-\(UUID().uuidString.prefix(8))"
        var options = MQTTClientOptions(
            clientID: clientID, host: host, port: port,
            reconnectDelayMin: .milliseconds(100), reconnectDelayMax: .seconds(1))
        configure(&options)
        let client = try MQTTClient(options: options, logger: logger)
        self.client = client
        let recorder = recorder
        // Test support only: these tasks end when the client shuts down (its streams finish).
        runTask = Task { try? await client.run() }
        recordTask = Task {
            for await item in client.inbound { await recorder.record(item) }
        }
        eventTask = Task {
            for await event in client.connectionEvents { await recorder.record(event) }
        }
    }

    /// Creates a client and waits until it is connected.
    public static func connect(
        port: Int, clientID: String? = nil,
        timeout: Duration = .seconds(10),
        configure: (inout MQTTClientOptions) -> Void = { _ in }
    ) async throws -> MQTTTestClient {
        let client = try MQTTTestClient(port: port, clientID: clientID, configure: configure)
        do {
            try await client.waitUntilConnected(timeout: timeout)
        } catch {
            await client.close()
            throw error
        }
        return client
    }

    /// Waits until the client is connected.
    public func waitUntilConnected(timeout: Duration = .seconds(10)) async throws {
        try await Self.poll(timeout: timeout, "connection to the broker") { await self.client.isConnected }
    }

    /// Subscribes and waits for the SUBACK.
    public func subscribe(_ filter: String, qos: MQTTQoS = .atLeastOnce, timeout: Duration = .seconds(10)) async throws
    {
        try await client.subscribe(filter, qos: qos)
        try await Self.poll(timeout: timeout, "SUBACK for \(filter)") { await self.client.subscriptionsAcknowledged }
    }

    /// Waits until this client has received everything the broker sent it so far, such as the retained messages
    /// that follow a SUBACK: subscribes to a topic of its own (`test/barrier/...`), publishes a token there and waits
    /// for it to come back. The broker handles a client's packets in order and sends to it in order, so the token
    /// arrives last. The token stays among `received`.
    public func barrier(timeout: Duration = .seconds(30)) async throws {
        let topic = "test/barrier/\(UUID().uuidString)"
        try await subscribe(topic, timeout: timeout)
        try await publish(topic: topic, text: "barrier")
        try await waitForMessage(topic: topic, text: "barrier", timeout: timeout)
    }

    /// Publishes a UTF-8 text payload.
    public func publish(topic: String, text: String, retain: Bool = false, qos: MQTTQoS = .atLeastOnce) async throws {
        try await client.publish(topic: topic, payload: Array(text.utf8), retain: retain, qos: qos)
    }

    /// Publishes raw bytes.
    public func publish(topic: String, payload: [UInt8], retain: Bool = false, qos: MQTTQoS = .atLeastOnce) async throws
    {
        try await client.publish(topic: topic, payload: payload, retain: retain, qos: qos)
    }

    /// Everything received so far.
    public var received: [MQTTMessage] {
        get async { await recorder.messages }
    }

    /// Messages received on `topic` so far.
    public func received(on topic: String) async -> [MQTTMessage] {
        await recorder.messages.filter { $0.topic == topic }
    }

    /// The first message on `topic` (among all received, starting at index `from` of `received`) that
    /// satisfies `predicate`, waiting up to `timeout`. Retained messages delivered on subscribe count.
    public func waitForMessage(
        topic: String, from index: Int = 0, timeout: Duration = .seconds(30),
        where predicate: @Sendable (MQTTMessage) -> Bool = { _ in true }
    ) async throws -> MQTTMessage {
        try await eventually(
            "a matching message on \(topic)", within: timeout,
            state: {
                let seen = await self.recorder.messages.filter { $0.topic == topic }
                return "seen: \(seen.map { "\($0.text)\($0.retained ? " (retained)" : "")" })"
            }
        ) {
            let messages = await recorder.messages
            guard index < messages.count else { return nil }
            return messages[index...].first { $0.topic == topic && predicate($0) }
        }
    }

    /// The first bridge event on `topic` (`<prefix>/bridge/<bridge>/event`), among the messages from index `from` of
    /// `received`, of `type` whose decoded fields satisfy `predicate`, waiting up to `timeout`.
    @discardableResult
    public func waitForEvent(
        _ type: String, topic: String, from index: Int = 0, timeout: Duration = .seconds(30),
        where predicate: @Sendable (JSONMessage) -> Bool = { _ in true }
    ) async throws -> JSONMessage {
        try await waitForJSON(topic: topic, from: index, timeout: timeout) { $0.type == type && predicate($0) }
    }

    /// The first message on `topic`, among the messages from index `from` of `received`, whose payload is a JSON
    /// object that satisfies `predicate` once decoded, waiting up to `timeout`.
    @discardableResult
    public func waitForJSON(
        topic: String, from index: Int = 0, timeout: Duration = .seconds(30),
        where predicate: @Sendable (JSONMessage) -> Bool = { _ in true }
    ) async throws -> JSONMessage {
        let message = try await waitForMessage(topic: topic, from: index, timeout: timeout) { message in
            JSONMessage(message).map(predicate) ?? false
        }
        guard let decoded = JSONMessage(message) else { throw TestSupportError("not a JSON object: \(message.text)") }
        return decoded
    }

    /// The messages on `topic` from index `from` of `received` whose payloads are JSON objects, decoded.
    public func receivedJSON(on topic: String, from index: Int = 0) async -> [JSONMessage] {
        let messages = await recorder.messages
        return messages[min(index, messages.count)...].filter { $0.topic == topic }.compactMap(JSONMessage.init)
    }

    /// Waits for a message on `topic` whose text payload is `text`.
    @discardableResult
    public func waitForMessage(
        topic: String, text: String, from index: Int = 0,
        timeout: Duration = .seconds(30)
    ) async throws -> MQTTMessage {
        try await waitForMessage(topic: topic, from: index, timeout: timeout) { $0.text == text }
    }

    /// Shuts the client down (clean DISCONNECT) and ends its tasks.
    public func close() async {
        await client.shutdown()
        runTask.cancel()
        _ = await runTask.value
        _ = await recordTask.value
        _ = await eventTask.value
    }

    /// Polls `condition` every 10 ms until true; throws after `timeout` (``eventually(_:within:poll:state:_:)``).
    public static func poll(timeout: Duration, _ what: String, _ condition: () async -> Bool) async throws {
        try await eventually(what, within: timeout) { await condition() }
    }
}
