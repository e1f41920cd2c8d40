import Foundation
import IntegrationSupport
import LabSupport
import Logging
import TestSupport
import Testing

@testable import MQTTDriver

@Suite("MQTTClient will, shutdown and inbound limits", .serialized)
struct MQTTClientLifecycleTests {
    private func options(port: Int, clientID: String) -> MQTTClientOptions {
        var options = MQTTClientOptions(
            clientID: clientID, port: port, reconnectDelayMin: .milliseconds(100),
            reconnectDelayMax: .seconds(1))
        options.will = MQTTWill(
            topic: "Thuis/bridge/\(clientID)/state", text: "offline", qos: .atLeastOnce, retain: true)
        return options
    }

    private func waitConnected(_ client: MQTTClient) async throws {
        try await MQTTTestClient.poll(timeout: .seconds(10), "connection") { await client.isConnected }
    }

    @Test("cancelling run() without shutdown drops the connection and the broker publishes the will")
    func willOnUngracefulEnd() async throws {
        let broker = try await MosquittoBroker.start()
        let observer = try await MQTTTestClient.connect(port: broker.port)
        do {
            try await observer.subscribe("Thuis/bridge/#")
            let client = try MQTTClient(
                options: options(port: broker.port, clientID: "willtest"), logger: Logger(label: "t"))
            let running = Task { try await client.run() }
            try await waitConnected(client)
            try await client.publish(
                topic: "Thuis/bridge/willtest/state", payload: Array("online".utf8), retain: true,
                qos: .atLeastOnce)
            try await observer.waitForMessage(topic: "Thuis/bridge/willtest/state", text: "online")
            running.cancel()
            try await running.value
            let will = try await observer.waitForMessage(topic: "Thuis/bridge/willtest/state", text: "offline")
            #expect(will.retained == false)  // live delivery to an existing subscriber
        } catch {
            Issue.record(error)
        }
        await observer.close()
        await broker.stop()
    }

    @Test("an idle connection leaves the network thread asleep (no timer), and a stop still wakes it at once")
    func idleNetworkThreadSleeps() async throws {
        let broker = try await MosquittoBroker.start()
        do {
            let client = try MQTTClient(
                options: options(port: broker.port, clientID: "idle"), logger: Logger(label: "t"))
            let running = Task { try await client.run() }
            try await waitConnected(client)
            try await client.subscribe("Thuis/idle/#", qos: .atLeastOnce)
            try await MQTTTestClient.poll(timeout: .seconds(10), "SUBACK") { await client.subscriptionsAcknowledged }
            let thread = try #require(await client.networkThreadID)
            let before = try #require(ThreadWakeups.count(thread: thread))
            // The window observed (not a synchronisation): nothing is sent or received in it, the keepalive is
            // 30 s away. A loop with a 100 ms timeout wakes about ten times in it.
            try await Task.sleep(for: .seconds(1))
            let after = try #require(ThreadWakeups.count(thread: thread))
            #expect(after - before <= 1, "the network thread woke \(after - before) times in an idle second")
            // No timer ends the wait: cancelling run() must wake the thread (it disconnects, with the will).
            running.cancel()
            try await running.value
        } catch {
            Issue.record(error)
        }
        await broker.stop()
    }

    @Test("shutdown publishes the final messages, waits for PUBACK, disconnects cleanly (no will) and ends run()")
    func gracefulShutdown() async throws {
        let broker = try await MosquittoBroker.start()
        do {
            let log = LogCapture()
            let client = try MQTTClient(
                options: options(port: broker.port, clientID: "graceful"), logger: log.logger(level: .info))
            let running = Task { try await client.run() }
            try await waitConnected(client)
            try await client.publish(
                topic: "Thuis/bridge/graceful/state", payload: Array("online".utf8), retain: true,
                qos: .atLeastOnce)
            // The PUBACK ends the wait, not the timeout: a shutdown that gave up on it says so in the log.
            let returned: Void? = try await finishing(within: .seconds(60)) {
                await client.shutdown(
                    final: [MQTTPublication(topic: "Thuis/bridge/graceful/state", text: "stopped", retain: true)],
                    timeout: .seconds(30))
            }
            #expect(returned != nil, "shutdown did not return")
            #expect(!log.lines.contains { $0.contains("not acknowledged") }, "\(log.lines)")
            #expect(log.lines.contains { $0.contains("MQTT client shut down") }, "\(log.lines)")
            try await running.value
            #expect(await client.isConnected == false)
            var events = client.connectionEvents.makeAsyncIterator()
            while await events.next() != nil {}  // the stream finishes after shutdown

            let late = try await MQTTTestClient.connect(port: broker.port)
            try await late.subscribe("Thuis/bridge/graceful/state")
            let state = try await late.waitForMessage(topic: "Thuis/bridge/graceful/state")
            #expect(state.text == "stopped")
            await late.close()
        } catch {
            Issue.record(error)
        }
        await broker.stop()
    }

    @Test("shutdown is safe and prompt when the client never connected or never ran")
    func shutdownWithoutConnection() async throws {
        let port = try FreePort.next()
        let idle = try MQTTClient(options: options(port: port, clientID: "idle"), logger: Logger(label: "t"))
        await idle.shutdown(final: [MQTTPublication(topic: "a", text: "b", retain: true)])

        let client = try MQTTClient(options: options(port: port, clientID: "never"), logger: Logger(label: "t"))
        let running = Task { try await client.run() }
        var events = client.connectionEvents.makeAsyncIterator()
        let first = await events.next()
        guard case .connectFailed(let error, let retryIn) = first else {
            Issue.record("expected connectFailed, got \(String(describing: first))")
            running.cancel()
            return
        }
        #expect(error.description.contains("mosquitto_connect"))
        #expect(retryIn == .milliseconds(100))
        let second = await events.next()
        if case .connectFailed(_, let retryIn) = second {
            #expect(retryIn == .milliseconds(200))  // exponential backoff
        } else {
            Issue.record("expected a second connectFailed, got \(String(describing: second))")
        }
        let ended: Void? = try await finishing(within: .seconds(60)) {
            await client.shutdown(final: [MQTTPublication(topic: "a", text: "b", retain: true)])
            try await running.value
        }
        #expect(ended != nil, "run() did not end after shutdown")
    }

    @Test("shutdown ends run() without waiting out the reconnect backoff")
    func shutdownWakesTheBackoff() async throws {
        let port = try FreePort.next()
        var options = options(port: port, clientID: "backoff")
        options.reconnectDelayMin = .seconds(600)
        options.reconnectDelayMax = .seconds(600)
        let client = try MQTTClient(options: options, logger: Logger(label: "t"))
        let running = Task { try await client.run() }
        var events = client.connectionEvents.makeAsyncIterator()
        // The network thread now waits ten minutes before its next attempt; the shutdown must end that wait.
        guard case .connectFailed(_, let retryIn) = await events.next() else {
            Issue.record("expected connectFailed")
            running.cancel()
            return
        }
        #expect(retryIn == .seconds(600))
        let ended: Void? = try await finishing(within: .seconds(60)) {
            await client.shutdown()
            try await running.value
        }
        #expect(ended != nil, "run() waited out the backoff after shutdown")
    }

    @Test("inbound payloads above the limit are reported as .oversized, smaller ones delivered")
    func oversizedInbound() async throws {
        let broker = try await MosquittoBroker.start()
        let receiver = try await MQTTTestClient.connect(port: broker.port) { $0.maxInboundPayloadBytes = 1024 }
        let sender = try await MQTTTestClient.connect(port: broker.port)
        do {
            try await receiver.subscribe("big/#")
            try await sender.publish(topic: "big/huge", payload: [UInt8](repeating: 0x41, count: 300_000))
            try await sender.publish(topic: "big/limit", payload: [UInt8](repeating: 0x42, count: 1024))
            try await sender.publish(topic: "big/small", text: "ok")
            try await receiver.waitForMessage(topic: "big/small", text: "ok")
            let limit = try await receiver.waitForMessage(topic: "big/limit")
            #expect(limit.payload.count == 1024)
            #expect(await receiver.received(on: "big/huge").isEmpty)
            try await MQTTTestClient.poll(timeout: .seconds(5), "the oversized report") {
                await !receiver.recorder.oversized.isEmpty
            }
            let oversized = await receiver.recorder.oversized
            #expect(oversized.count == 1)
            #expect(oversized.first?.topic == "big/huge")
            #expect(oversized.first?.size == 300_000)
        } catch {
            Issue.record(error)
        }
        await sender.close()
        await receiver.close()
        await broker.stop()
    }

    @Test("a packet over our MQTT 5 Maximum Packet Size is never sent to us; smaller ones are")
    func packetLimitKeepsLargeMessagesAtTheBroker() async throws {
        let broker = try await MosquittoBroker.start()
        let receiver = try await MQTTTestClient.connect(port: broker.port) {
            $0.maxInboundPacketBytes = 4096
            $0.maxInboundPayloadBytes = 1024
        }
        let sender = try await MQTTTestClient.connect(port: broker.port)
        do {
            try await receiver.subscribe("big/#")
            try await sender.publish(topic: "big/huge", payload: [UInt8](repeating: 0x41, count: 100_000))
            try await sender.publish(topic: "big/medium", payload: [UInt8](repeating: 0x42, count: 2000))
            try await sender.publish(topic: "big/small", text: "ok")
            // In order from one sender: once "small" is here, the broker has dealt with the two before it.
            try await receiver.waitForMessage(topic: "big/small", text: "ok")
            try await MQTTTestClient.poll(timeout: .seconds(5), "the medium one reported as oversized") {
                await !receiver.recorder.oversized.isEmpty
            }
            let oversized = await receiver.recorder.oversized
            #expect(oversized.map(\.topic) == ["big/medium"], "the 100 kB packet reached the client: \(oversized)")
            #expect(await receiver.received(on: "big/huge").isEmpty)
        } catch {
            Issue.record(error)
        }
        await sender.close()
        await receiver.close()
        await broker.stop()
    }

    @Test("a slow consumer loses the oldest inbound messages, counted in statistics")
    func inboundBufferIsBounded() async throws {
        let broker = try await MosquittoBroker.start()
        let sender = try await MQTTTestClient.connect(port: broker.port)
        do {
            var options = MQTTClientOptions(clientID: "slow", port: broker.port)
            options.inboundBufferSize = 10
            let client = try MQTTClient(options: options, logger: Logger(label: "t"))
            let running = Task { try await client.run() }
            try await waitConnected(client)
            try await client.subscribe("flood/#", qos: .atLeastOnce)
            try await MQTTTestClient.poll(timeout: .seconds(5), "SUBACK") { await client.subscriptionsAcknowledged }
            for index in 0..<50 {
                try await sender.publish(topic: "flood/\(index)", text: "\(index)")
            }
            try await MQTTTestClient.poll(timeout: .seconds(10), "40 drops") {
                await client.statistics.droppedInbound >= 40
            }
            var received: [String] = []
            var iterator = client.inbound.makeAsyncIterator()
            for _ in 0..<10 {
                if case .message(let message) = await iterator.next() { received.append(message.topic) }
            }
            #expect(received == (40..<50).map { "flood/\($0)" })
            #expect(await client.statistics.droppedInbound == 40)
            await client.shutdown()
            try await running.value
        } catch {
            Issue.record(error)
        }
        await sender.close()
        await broker.stop()
    }
}
