import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import Logging
import MQTTDriver
import TestSupport
import Testing

/// what the connection drops is reported, with how many and on which topics.
@Suite("dropped messages are reported", .serialized)
struct DroppedMessagesTests {
    /// Collects `messages_dropped` events until `count` messages are reported in all.
    static func collect(_ events: AsyncStream<HardwareEvent>, count: Int) async -> [DroppedMessages] {
        var reports: [DroppedMessages] = []
        for await event in events {
            guard case .event(.messagesDropped(let dropped)) = event else { continue }
            reports.append(dropped)
            if reports.map(\.count).reduce(0, +) >= count { break }
        }
        return reports
    }

    @Test("inbound: a consumer that falls behind loses the oldest messages, reported by topic with their count")
    func inboundDropsAreReported() async throws {
        let broker = try await MosquittoBroker.start()
        let sender = try await MQTTTestClient.connect(port: broker.port)
        var options = MQTTClientOptions(clientID: "behind", port: broker.port)
        options.inboundBufferSize = 4
        let client = try MQTTClient(options: options, logger: Logger(label: "t"))
        let running = Task { try await client.run() }
        do {
            try await MQTTTestClient.poll(timeout: .seconds(10), "connection") { await client.isConnected }
            try await client.subscribe("Thuis/device/#", qos: .atLeastOnce)
            try await MQTTTestClient.poll(timeout: .seconds(5), "SUBACK") { await client.subscriptionsAcknowledged }
            // Nobody reads `inbound`: of 15 messages the newest 4 stay, the oldest 11 are dropped.
            for index in 0..<15 {
                let topic = index < 8 ? "Thuis/device/hall/lamp/set" : "Thuis/device/hall/fan/set"
                try await sender.publish(topic: topic, text: "\(index)")
            }
            let reports = await Self.collect(client.droppedMessages(interval: .zero), count: 11)
            #expect(reports.allSatisfy { $0.direction == .inbound && $0.limit == 4 })
            var topics: [String: Int] = [:]
            for report in reports {
                for entry in report.topics { topics[entry.topic, default: 0] += entry.count }
            }
            #expect(topics == ["Thuis/device/hall/lamp/set": 8, "Thuis/device/hall/fan/set": 3], "\(reports)")
            let event = try #require(reports.first.map { BridgeEvent.messagesDropped($0).json })
            #expect(event["type"] == "messages_dropped" && event["direction"] == "inbound")
            #expect(event["reason"].map { $0.serialized.contains("4 messages") } == true, "\(event.serialized)")
        } catch {
            Issue.record(error)
        }
        await client.shutdown()
        _ = try? await running.value
        await sender.close()
        await broker.stop()
    }

    @Test("outbound: events queued while the broker is away past the queue's limit are reported once connected")
    func outboundDropsAreReportedOnceConnected() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try await MQTTTestClient.connect(port: broker.port, clientID: "queue") {
            $0.offlineQueueLimit = 5
        }
        do {
            await broker.kill()
            try await MQTTTestClient.poll(timeout: .seconds(10), "the outage noticed") {
                await bridge.client.isConnected == false
            }
            for index in 0..<20 {
                try await bridge.publish(
                    topic: index < 12 ? "Thuis/bridge/x/event" : "Thuis/bridge/x/response/a", text: "\(index)")
            }
            let reports = Task { await Self.collect(bridge.client.droppedMessages(interval: .zero), count: 15) }
            try await broker.restart()
            let collected = await reports.value
            #expect(collected.allSatisfy { $0.direction == .outbound && $0.limit == 5 }, "\(collected)")
            #expect(collected.map(\.count).reduce(0, +) == 15)
            #expect(
                collected.flatMap(\.topics).map(\.topic).sorted()
                    == ["Thuis/bridge/x/event", "Thuis/bridge/x/response/a"], "\(collected)")
        } catch {
            Issue.record(error)
        }
        await bridge.close()
        await broker.stop()
    }

    /// The daemon's wiring (`Composition` hands `droppedMessages()` to the bridge as one of its event streams):
    /// the bridge's inbound loop stalls on a front end that does not return, the client drops what keeps coming,
    /// and the bridge publishes a `messages_dropped` event naming the topics.
    @Test("the bridge publishes what its connection dropped as a messages_dropped event")
    func theBridgePublishesTheDrops() async throws {
        let broker = try await MosquittoBroker.start()
        let watcher = try await MQTTTestClient.connect(port: broker.port)
        var options = MQTTClientOptions(clientID: "thuis-bridge-living", port: broker.port)
        options.inboundBufferSize = 2
        let client = try MQTTClient(options: options, logger: Logger(label: "t"))
        let stall = StallingFrontEnd()
        let bridge = Bridge(
            identity: BridgeIdentity(name: "living"), devices: [], backends: [], frontEnds: [stall], mqtt: client,
            logger: Logger(label: "t"))
        let running = Task {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { try await client.run() }
                group.addTask {
                    await bridge.run(inbound: client.inboundMessages, hardware: [client.droppedMessages()])
                }
            }
        }
        do {
            try await watcher.subscribe("Thuis/bridge/living/event")
            try await MQTTTestClient.poll(timeout: .seconds(10), "subscriptions") {
                await client.subscriptionsAcknowledged
            }
            try await watcher.publish(topic: "stall/now", text: "x")
            await stall.waitUntilStalled()
            for index in 0..<10 {
                try await watcher.publish(topic: "Thuis/device/hall/lamp/set", text: "\(index)")
            }
            let event = try await watcher.waitForEvent("messages_dropped", topic: "Thuis/bridge/living/event")
            let json = event.json
            #expect(json["direction"] == "inbound")
            // Of the ten commands, the two the queue holds are kept; the bridge's own retained state may come back
            // during the stall and be dropped too (a full run on a loaded machine saw it): counted under its topic.
            guard case .int(let count)? = json["count"], case .object(let topics)? = json["topics"],
                case .int(let others)? = json["other_topics"]
            else {
                Issue.record("the event's counts are not whole numbers: \(event)")
                return
            }
            let perTopic = topics.map { if case .int(let n) = $0.1 { n } else { 0 } }
            #expect(count == perTopic.reduce(others, +), "\(event)")
            if case .int(let lamp)? = json["topics"]?["Thuis/device/hall/lamp/set"] {
                #expect((1...8).contains(lamp), "\(event)")
            } else {
                Issue.record("no drops counted for the lamp's /set: \(event)")
            }
        } catch {
            Issue.record(error)
        }
        await stall.release()
        running.cancel()
        await client.shutdown()
        _ = try? await running.value
        await watcher.close()
        await broker.stop()
    }
}

/// A front end that owns `stall/#` and does not return from the first message until released: the bridge's
/// inbound loop waits for it, as it would for a slow handler.
actor StallingFrontEnd: BridgeFrontEnd {
    nonisolated let subscriptions = ["stall/#"]
    private var stalled = false
    private var stallWaiters: [CheckedContinuation<Void, Never>] = []
    private var releaseWaiter: CheckedContinuation<Void, Never>?
    private var released = false

    nonisolated func owns(_ topic: String) -> Bool { topic.hasPrefix("stall/") }

    func receive(_ message: InboundMessage) async {
        stalled = true
        for waiter in stallWaiters { waiter.resume() }
        stallWaiters = []
        if !released { await withCheckedContinuation { releaseWaiter = $0 } }
    }

    func waitUntilStalled() async {
        if stalled { return }
        await withCheckedContinuation { stallWaiters.append($0) }
    }

    func release() {
        released = true
        releaseWaiter?.resume()
        releaseWaiter = nil
    }

    func inventoryChanged(_ inventory: BridgeInventory) async {}
    func run(serving bridge: Bridge) async {}
}
