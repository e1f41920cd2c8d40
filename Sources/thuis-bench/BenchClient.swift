import Foundation
import Logging
import MQTTDriver

/// An MQTT client for the benchmark on the project's `MQTTClient`: every received message is stamped
/// with its arrival time in an `Inbox`, as it is delivered. Close it with `close()`.
final class BenchClient: Sendable {
    let client: MQTTClient
    let inbox = Inbox<MQTTMessage>()
    private let runTask: Task<Void, Never>
    private let receiveTask: Task<Void, Never>

    init(port: Int, name: String) async throws {
        var logger = Logger(label: "bench.\(name)")
        logger.logLevel = .error
        let options = MQTTClientOptions(
            clientID: "bench-\(name)-\(getpid())", host: "127.0.0.1", port: port,
            reconnectDelayMin: .milliseconds(100), reconnectDelayMax: .seconds(1))
        let client = try MQTTClient(options: options, logger: logger)
        self.client = client
        let inbox = inbox
        // Benchmark-only tasks; they end when the client shuts down (its streams finish).
        runTask = Task { try? await client.run() }
        receiveTask = Task {
            for await item in client.inbound {
                if case .message(let message) = item { inbox.put(message) }
            }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while !(await client.isConnected) {
            guard ContinuousClock.now < deadline else {
                throw BenchError("MQTT client \(name) could not connect to port \(port)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    func subscribe(_ filter: String) async throws {
        try await client.subscribe(filter, qos: .atLeastOnce)
        let deadline = ContinuousClock.now + .seconds(10)
        while !(await client.subscriptionsAcknowledged) {
            guard ContinuousClock.now < deadline else { throw BenchError("no SUBACK for \(filter)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    func publish(_ topic: String, _ text: String, qos: MQTTQoS = .atLeastOnce) async throws {
        try await client.publish(topic: topic, payload: Array(text.utf8), retain: false, qos: qos)
    }

    /// The first message on `topic` with payload `text` at inbox index ≥ `from`.
    func wait(topic: String, text: String? = nil, from: Int, timeout: Duration) async -> Inbox<MQTTMessage>.Stamped? {
        await inbox.next(from: from, timeout: timeout) { $0.topic == topic && (text == nil || $0.text == text) }
    }

    func close() async {
        await client.shutdown()
        runTask.cancel()
        _ = await runTask.value
        _ = await receiveTask.value
    }
}
