import Foundation
import IntegrationSupport
import Logging
import Synchronization
import TestSupport
import Testing

@testable import MQTTDriver

/// What a consumer saw: the value and whether it ran inside a delivery on the delivering thread.
private final class Handled: Sendable {
    private let items = Mutex<[(value: Int, inside: Bool)]>([])
    func add(_ value: Int, inside: Bool) { items.withLock { $0.append((value, inside)) } }
    var all: [(value: Int, inside: Bool)] { items.withLock { $0 } }
}

@Suite("InboundExecutor: a preferring consumer handles each message inside its delivery")
struct InboundExecutorTests {
    @Test("a waiting consumer has handled the value when deliver returns, on the delivering thread")
    func handledInsideDelivery() async throws {
        let executor = InboundExecutor()
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let handled = Handled()
        let consumer = Task(executorPreference: executor) {
            for await value in stream { handled.add(value, inside: executor.isDeliveringOnCurrentThread) }
        }
        // The consumer starts on the global pool; the first values may find it not yet waiting. Once one
        // is handled inside a delivery, the consumer is waiting again whenever deliver returns.
        var insideAt: Int?
        for value in 0..<50 {
            executor.deliver { continuation.yield(value) }
            if handled.all.count == value + 1, handled.all[value].inside {
                insideAt = value
                break
            }
            try await MQTTTestClient.poll(timeout: .seconds(5), "value \(value) handled") {
                handled.all.count == value + 1
            }
        }
        let first = try #require(insideAt, "no value was handled inside its delivery")
        for value in (first + 1)...(first + 20) {
            executor.deliver { continuation.yield(value) }
            // No await in between: handled before deliver returned, by the delivering thread.
            #expect(handled.all.count == value + 1)
            #expect(handled.all.last?.value == value)
            #expect(handled.all.last?.inside == true)
        }
        continuation.finish()
        await consumer.value
    }

    @Test("work enqueued outside a delivery still runs (on the global pool), so nothing waits for a message")
    func outsideDeliveryRuns() async {
        let executor = InboundExecutor()
        let answer = await Task(executorPreference: executor) { () -> Int in
            #expect(executor.isDeliveringOnCurrentThread == false)
            return 42
        }.value
        #expect(answer == 42)

        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let consumer = Task(executorPreference: executor) { () -> [Int] in
            var values: [Int] = []
            for await value in stream { values.append(value) }
            return values
        }
        continuation.yield(1)  // from this task, not inside a delivery
        continuation.yield(2)
        continuation.finish()
        #expect(await consumer.value == [1, 2])
    }

    @Test("with a real broker, a consumer preferring inboundExecutor handles messages on the network thread")
    func realBrokerDeliversInline() async throws {
        let broker = try await MosquittoBroker.start()
        let publisher = try await MQTTTestClient.connect(port: broker.port)
        do {
            let options = MQTTClientOptions(
                clientID: "inline", port: broker.port,
                reconnectDelayMin: .milliseconds(100), reconnectDelayMax: .seconds(1))
            let client = try MQTTClient(options: options, logger: Logger(label: "t"))
            let running = Task { try await client.run() }
            let handled = Handled()
            let executor = client.inboundExecutor
            let consumer = Task(executorPreference: executor) {
                for await item in client.inbound {
                    guard case .message(let message) = item, let value = Int(message.text) else { continue }
                    handled.add(value, inside: executor.isDeliveringOnCurrentThread)
                }
            }
            try await MQTTTestClient.poll(timeout: .seconds(10), "connection") { await client.isConnected }
            try await client.subscribe("inline/#", qos: .atLeastOnce)
            try await MQTTTestClient.poll(timeout: .seconds(10), "SUBACK") { await client.subscriptionsAcknowledged }
            for value in 0..<20 {
                try await publisher.publish(topic: "inline/value", text: String(value))
                try await MQTTTestClient.poll(timeout: .seconds(10), "value \(value)") {
                    handled.all.count == value + 1
                }
            }
            #expect(handled.all.map(\.value) == Array(0..<20))
            // The consumer's first run is on the pool; once one message is handled inside its delivery, the
            // consumer is waiting again before the next can be delivered, so every later one is too.
            let firstInside = try #require(handled.all.firstIndex(where: { $0.inside }), "no message handled inline")
            #expect(firstInside < 10)
            #expect(handled.all[firstInside...].allSatisfy({ $0.inside }))
            await client.shutdown()
            try await running.value
            await consumer.value  // the stream finishes at shutdown; the consumer's last resume runs on the pool
        } catch {
            Issue.record(error)
        }
        await publisher.close()
        await broker.stop()
    }
}
