import Foundation
import IntegrationSupport
import LabSupport
import Logging
import MQTTDriver
import TestSupport
import Testing

@Suite("MQTTClient against a real mosquitto", .serialized)
struct MQTTClientConnectionTests {
    @Test("a retained state published by the client reaches a later subscriber")
    func subscriberSeesRetainedState() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try await MQTTTestClient.connect(port: broker.port)
        let observer = try await MQTTTestClient.connect(port: broker.port)
        do {
            try await bridge.publish(topic: "Thuis/device/living/lamp", text: "on", retain: true)
            // The bridge's own later SUBSCRIBE on the same connection is processed after its PUBLISH, so once
            // it sees the state the broker stores it, and the observer's subscription comes later still.
            try await bridge.subscribe("Thuis/device/living/lamp")
            try await bridge.waitForMessage(topic: "Thuis/device/living/lamp", text: "on")
            try await observer.subscribe("Thuis/device/#")
            let message = try await observer.waitForMessage(topic: "Thuis/device/living/lamp", text: "on")
            #expect(message.retained)
        } catch {
            Issue.record(error)
        }
        await observer.close()
        await bridge.close()
        await broker.stop()
    }

    @Test("the first connect fails while the broker is down; the client keeps trying and connects later")
    func firstConnectRetriesUntilBrokerIsUp() async throws {
        let port = try FreePort.next()
        let bridge = try MQTTTestClient(port: port)
        var broker: MosquittoBroker?
        do {
            try await bridge.publish(topic: "early/state", text: "ready", retain: true)
            try await MQTTTestClient.poll(timeout: .seconds(10), "a failed connect") {
                await bridge.recorder.connectionEvents.contains { if case .connectFailed = $0 { true } else { false } }
            }
            #expect(await bridge.client.isConnected == false)
            broker = try await MosquittoBroker.start(.init(port: port))
            try await bridge.waitUntilConnected(timeout: .seconds(10))
            let observer = try await MQTTTestClient.connect(port: port)
            try await observer.subscribe("early/#")
            try await observer.waitForMessage(topic: "early/state", text: "ready")
            await observer.close()
        } catch {
            Issue.record(error)
        }
        await bridge.close()
        await broker?.stop()
    }

    @Test("after a broker restart with an empty store the client republishes its retained states and re-subscribes")
    func restartHealsStoreAndResubscribes() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try await MQTTTestClient.connect(port: broker.port)
        let observer = try await MQTTTestClient.connect(port: broker.port)
        do {
            try await bridge.publish(topic: "Thuis/bridge/pi/state", text: "online", retain: true)
            try await bridge.publish(topic: "Thuis/device/living/lamp", text: "42", retain: true)
            try await bridge.subscribe("Thuis/device/+/+/set")
            try await observer.subscribe("Thuis/#")
            try await observer.waitForMessage(topic: "Thuis/device/living/lamp", text: "42")

            let seenBefore = await observer.received.count
            try await broker.restart()
            // The observer (also re-subscribing) sees both states again: only the bridge can have resent them.
            let healed = try await observer.waitForMessage(
                topic: "Thuis/device/living/lamp", text: "42", from: seenBefore,
                timeout: .seconds(15))
            _ = healed
            try await observer.waitForMessage(topic: "Thuis/bridge/pi/state", text: "online", from: seenBefore)
            // The bridge sent SUBSCRIBE before republishing on the same connection, so its subscription is live.
            try await observer.publish(topic: "Thuis/device/living/lamp/set", text: "off")
            let command = try await bridge.waitForMessage(topic: "Thuis/device/living/lamp/set", text: "off")
            #expect(command.retained == false)
            #expect(await bridge.client.statistics.connects == 2)
            let events = await bridge.recorder.connectionEvents
            #expect(events.contains { if case .disconnected = $0 { true } else { false } })
        } catch {
            Issue.record(error)
        }
        await observer.close()
        await bridge.close()
        await broker.stop()
    }

    /// Discovery's configs are published with `keep` false: the client does not hold them for a reconnect, their
    /// publisher publishes them again on `connections()`. What the client keeps (a device state) it resends itself.
    @Test("a retained message published with keep false is not resent after a broker restart; connections() says when")
    func unkeptRetainedIsLeftToItsPublisher() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try await MQTTTestClient.connect(port: broker.port)
        let config = "homeassistant/switch/thuis_pi/thuis_pi_cec_0_power/config"
        do {
            var connections = await bridge.client.connections().makeAsyncIterator()
            #expect(await connections.next() != nil, "connected now: the stream says so at once")
            try await bridge.client.publish(
                topic: config, payload: Array("{}".utf8), retain: true, qos: .atLeastOnce, keep: false)
            try await bridge.publish(topic: "Thuis/device/living/lamp", text: "42", retain: true)
            try await bridge.barrier()  // both acknowledged: nothing in flight for the session to resend

            try await broker.restart()
            #expect(await connections.next() != nil, "connected again after the restart")
            // Once this kept marker is seen, the broker has handled everything the client resent before it.
            try await bridge.publish(topic: "test/after-restart", text: "marker", retain: true)
            let checker = try await MQTTTestClient.connect(port: broker.port)
            try await checker.subscribe("#")
            try await checker.waitForMessage(topic: "test/after-restart", text: "marker", timeout: .seconds(15))
            try await checker.barrier()
            #expect(await checker.received(on: "Thuis/device/living/lamp").map(\.text) == ["42"])
            #expect(await checker.received(on: config).isEmpty, "the unkept config was resent by the client")
            await checker.close()
        } catch {
            Issue.record(error)
        }
        await bridge.close()
        await broker.stop()
    }

    /// No Local (MQTT 5): discovery does not get its own configs back, only what the broker held when it subscribed
    /// and what others publish.
    @Test("a subscription with No Local does not get the client's own publications back")
    func noLocalSubscription() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try await MQTTTestClient.connect(port: broker.port)
        let other = try await MQTTTestClient.connect(port: broker.port)
        do {
            try await bridge.publish(topic: "homeassistant/x/earlier", text: "held", retain: true)
            try await bridge.client.subscribe("homeassistant/#", qos: .atLeastOnce, noLocal: true)
            try await MQTTTestClient.poll(timeout: .seconds(10), "SUBACK") {
                await bridge.client.subscriptionsAcknowledged
            }
            try await other.subscribe("homeassistant/#")
            try await bridge.publish(topic: "homeassistant/x/own", text: "mine")
            try await other.waitForMessage(topic: "homeassistant/x/own", text: "mine")
            // Published after the broker forwarded "own": it comes to the bridge after "own" would have.
            try await other.publish(topic: "homeassistant/x/theirs", text: "theirs")
            try await bridge.waitForMessage(topic: "homeassistant/x/theirs", text: "theirs")
            #expect(await bridge.received(on: "homeassistant/x/own").isEmpty)
            #expect(await bridge.received(on: "homeassistant/x/earlier").map(\.retained) == [true])
        } catch {
            Issue.record(error)
        }
        await other.close()
        await bridge.close()
        await broker.stop()
    }

    @Test("with the default backoff (1 s, doubling, 30 s cap) the client retries a lost broker soon and is back")
    func defaultBackoffReconnectsQuickly() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try MQTTTestClient(port: broker.port) {
            $0.reconnectDelayMin = .seconds(1)
            $0.reconnectDelayMax = .seconds(30)
        }
        do {
            try await bridge.waitUntilConnected()
            await broker.kill()
            // The waits the client chooses (its events, recorded on their own task): the lost connection is retried
            // after the minimum, and each failed attempt doubles the wait, however many attempts the outage takes.
            func sinceTheLoss() async -> [MQTTConnectionEvent] {
                Array(
                    await bridge.recorder.connectionEvents.drop { event in
                        if case .disconnected = event { false } else { true }
                    })
            }
            func failedAttempts() async -> Int {
                await sinceTheLoss().count { if case .connectFailed = $0 { true } else { false } }
            }
            // The broker stays away for two attempts (after 1 s, then 2 s more).
            try await MQTTTestClient.poll(timeout: .seconds(60), "two failed attempts") { await failedAttempts() >= 2 }
            try await broker.restart()
            let restarted = ContinuousClock.now
            try await bridge.waitUntilConnected(timeout: .seconds(60))
            print("MQTT client back \(ContinuousClock.now - restarted) after the broker's restart")
            try await MQTTTestClient.poll(timeout: .seconds(10), "the connected event") {
                if case .connected? = await sinceTheLoss().last { true } else { false }
            }
            let events = await sinceTheLoss()
            if case .disconnected(_, let retryIn)? = events.first {
                #expect(retryIn == .seconds(1))
            }
            let waits = events.compactMap { event -> Duration? in
                if case .connectFailed(_, let retryIn) = event { retryIn } else { nil }
            }
            let schedule = waits.indices.map { min(Duration.seconds(1 << min($0, 16)), .seconds(30)) }
            #expect(waits == schedule, "\(events)")
        } catch {
            Issue.record(error)
        }
        await bridge.close()
        await broker.stop()
    }

    @Test("states changed during an outage reach the broker as their latest value only; clears are delivered")
    func outageSendsLatestStateOnly() async throws {
        let broker = try await MosquittoBroker.start(.init(persistence: true, logPackets: true))
        let bridgeID = "bridge-outage"
        let bridge = try await MQTTTestClient.connect(port: broker.port, clientID: bridgeID)
        let observer = try await MQTTTestClient.connect(port: broker.port)
        do {
            try await bridge.publish(topic: "s/a", text: "0", retain: true)
            try await bridge.publish(topic: "s/b", text: "x", retain: true)
            try await observer.subscribe("s/#")
            try await observer.waitForMessage(topic: "s/b", text: "x")
            try await observer.waitForMessage(topic: "s/a", text: "0")

            await broker.stop(keepingStore: true)
            try await MQTTTestClient.poll(timeout: .seconds(10), "the bridge to notice the outage") {
                await bridge.client.isConnected == false
            }
            let logLinesBefore = broker.output.count
            for value in ["1", "2", "3"] {
                try await bridge.publish(topic: "s/a", text: value, retain: true)
            }
            try await bridge.publish(topic: "s/b", payload: [], retain: true)
            #expect(await bridge.client.retainedTopics == ["s/a": Array("3".utf8)])
            #expect(await bridge.client.statistics.queued == 0)

            let seenBefore = await observer.received.count
            try await broker.restart()
            try await observer.waitForMessage(topic: "s/a", text: "3", from: seenBefore, timeout: .seconds(15))
            let observed = await observer.received(on: "s/a").dropFirst(1).map(\.text)
            #expect(!observed.contains("1") && !observed.contains("2"))

            // The broker log counts what the bridge actually sent after the restart: one PUBLISH per topic.
            try await bridge.waitUntilConnected()
            let sent = broker.output.dropFirst(logLinesBefore).filter {
                $0.contains("Received PUBLISH from \(bridgeID)")
            }
            #expect(sent.filter { $0.contains("'s/a'") }.count == 1, "\(sent)")
            let clears = sent.filter { $0.contains("'s/b'") }
            #expect(clears.count == 1, "\(sent)")
            #expect(clears.allSatisfy { $0.contains("r1,") && $0.contains("(0 bytes)") }, "\(clears)")

            // A fresh subscriber sees the latest state and no cleared topic.
            let late = try await MQTTTestClient.connect(port: broker.port)
            try await late.subscribe("s/#")
            try await late.waitForMessage(topic: "s/a", text: "3")
            #expect(await late.received(on: "s/b").isEmpty)
            await late.close()
        } catch {
            Issue.record(error)
        }
        await observer.close()
        await bridge.close()
        await broker.stop()
    }

    @Test("non-retained messages published while disconnected are queued up to the limit, oldest dropped")
    func offlineQueueIsBounded() async throws {
        let broker = try await MosquittoBroker.start(.init(logPackets: true))
        let bridgeID = "bridge-queue"
        let bridge = try await MQTTTestClient.connect(port: broker.port, clientID: bridgeID) {
            $0.offlineQueueLimit = 5
        }
        do {
            await broker.kill()
            try await MQTTTestClient.poll(timeout: .seconds(10), "the bridge to notice the outage") {
                await bridge.client.isConnected == false
            }
            let logLinesBefore = broker.output.count
            for index in 0..<20 {
                try await bridge.publish(topic: "q/\(index)", text: "\(index)")
            }
            let statistics = await bridge.client.statistics
            #expect(statistics.queued == 5)
            #expect(statistics.droppedQueued == 15)

            try await broker.restart()
            try await bridge.waitUntilConnected(timeout: .seconds(15))
            try await MQTTTestClient.poll(timeout: .seconds(10), "the queued messages to reach the broker") {
                broker.output.dropFirst(logLinesBefore).filter { $0.contains("Received PUBLISH from \(bridgeID)") }
                    .count >= 5
            }
            let sent = broker.output.dropFirst(logLinesBefore)
                .filter { $0.contains("Received PUBLISH from \(bridgeID)") }
            let topics = sent.compactMap { line in line.split(separator: "'").dropFirst().first.map(String.init) }
            #expect(topics == (15..<20).map { "q/\($0)" })
            #expect(await bridge.client.statistics.queued == 0)
        } catch {
            Issue.record(error)
        }
        await bridge.close()
        await broker.stop()
    }

    @Test("MQTTTestClient.barrier returns once the retained messages that follow a SUBACK have all arrived")
    func barrierFollowsTheRetainedMessages() async throws {
        let broker = try await MosquittoBroker.start()
        let publisher = try await MQTTTestClient.connect(port: broker.port)
        do {
            for index in 0..<300 {
                try await publisher.publish(topic: "kept/\(index)", text: "\(index)", retain: true)
            }
            try await publisher.barrier()  // the broker has stored all of them
            let fresh = try await MQTTTestClient.connect(port: broker.port)
            try await fresh.subscribe("kept/#")
            try await fresh.barrier()
            #expect(await fresh.received.filter { $0.topic.hasPrefix("kept/") }.count == 300)
            await fresh.close()
        } catch {
            Issue.record(error)
        }
        await publisher.close()
        await broker.stop()
    }
}
