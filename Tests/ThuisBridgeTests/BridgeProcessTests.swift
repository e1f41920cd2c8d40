import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing

/// The real `thuis-bridge run` process against a real mosquitto: online/offline, the last will, broker
/// restarts, retained commands, a clean stop.
@Suite(.endToEnd) struct BridgeProcessTests {
    /// A running bridge with a subscriber on everything under the prefix.
    struct Running {
        let broker: MosquittoBroker
        let bridge: ChildProcess
        let watcher: MQTTTestClient
        let directory: TemporaryDirectory

        static func start(
            name: String, beforeBridge: @Sendable (MQTTTestClient) async throws -> Void = { _ in }
        ) async throws -> Running {
            let broker = try await MosquittoBroker.start()
            let directory = try TemporaryDirectory()
            let config = try directory.write(
                "devices.toml", ConfigFixture(name: name, mqtt: .local(port: broker.port)).text)
            let watcher = try await MQTTTestClient.connect(port: broker.port)
            try await watcher.subscribe("Thuis/#")
            try await beforeBridge(watcher)
            let bridge = try ChildProcess(
                executable: try BuiltProduct.executable(named: "thuis-bridge").path,
                arguments: ["run", "--config", config])
            return Running(broker: broker, bridge: bridge, watcher: watcher, directory: directory)
        }

        func stop() async {
            _ = await bridge.stop()
            await watcher.close()
            await broker.stop()
        }
    }

    @Test func publishesOnlineAndTheLastWillMarksItOfflineAfterKill9() async throws {
        let running = try await Running.start(name: "kill9")
        do {
            try await running.watcher.waitForMessage(
                topic: "Thuis/bridge/kill9/state", text: "online", timeout: .seconds(20))
            let inventory = try await running.watcher.waitForMessage(topic: "Thuis/bridge/kill9/devices")
            #expect(inventory.text == "[]", "a bridge without devices has an empty inventory")
            // Retained: a client that subscribes later gets it from the broker.
            let reader = try await MQTTTestClient.connect(port: running.broker.port)
            try await reader.subscribe("Thuis/bridge/kill9/devices")
            let stored = try await reader.waitForMessage(topic: "Thuis/bridge/kill9/devices")
            await reader.close()
            #expect(stored.retained && stored.text == "[]", "the inventory is not retained")
            let before = await running.watcher.received.count
            running.bridge.kill()
            #expect(await running.bridge.waitForExit(timeout: .seconds(5)) == .signalled(SIGKILL))
            // The broker notices the dead connection and publishes the retained will.
            try await running.watcher.waitForMessage(
                topic: "Thuis/bridge/kill9/state", text: "offline", from: before, timeout: .seconds(60))
            // A new subscriber gets the retained `offline`.
            let late = try await MQTTTestClient.connect(port: running.broker.port)
            try await late.subscribe("Thuis/bridge/kill9/state")
            let retained = try await late.waitForMessage(topic: "Thuis/bridge/kill9/state")
            #expect(retained.text == "offline" && retained.retained)
            await late.close()
        } catch {
            Issue.record("bridge output:\n\(running.bridge.outputText)")
            await running.stop()
            throw error
        }
        await running.stop()
    }

    @Test func brokerRestartWithAnEmptyStoreIsHealed() async throws {
        let running = try await Running.start(name: "restart")
        do {
            try await running.watcher.waitForMessage(
                topic: "Thuis/bridge/restart/state", text: "online", timeout: .seconds(20))
            let before = await running.watcher.received.count
            try await running.broker.restart()
            // The bridge reconnects and republishes its retained state into the empty store.
            try await running.watcher.waitForMessage(
                topic: "Thuis/bridge/restart/state", text: "online", from: before, timeout: .seconds(40))
            _ = try await running.watcher.waitForMessage(
                topic: "Thuis/bridge/restart/devices", from: before, timeout: .seconds(10))
            let late = try await MQTTTestClient.connect(port: running.broker.port)
            try await late.subscribe("Thuis/bridge/restart/state")
            #expect(try await late.waitForMessage(topic: "Thuis/bridge/restart/state").text == "online")
            await late.close()
            // It re-subscribed: a command sent after the restart is answered (here: rejected, no such device).
            let mark = await running.watcher.received.count
            try await MQTTTestClient.poll(timeout: .seconds(20), "a command after the restart is answered") {
                try? await running.watcher.publish(topic: "Thuis/device/attic/lamp/set", text: "on")
                let events = await running.watcher.received(on: "Thuis/bridge/restart/event")
                let count = await running.watcher.received.count
                return count > mark
                    && events.contains {
                        JSONMessage($0)?.string("reason", contains: "unknown device attic/lamp") == true
                    }
            }
        } catch {
            Issue.record("bridge output:\n\(running.bridge.outputText)")
            await running.stop()
            throw error
        }
        await running.stop()
    }

    /// A retained `/set` left in the broker (e.g. by a misconfigured script) is delivered with the retain
    /// flag when the bridge subscribes; it must not be executed.
    @Test func retainedCommandsAreIgnoredAndReported() async throws {
        let running = try await Running.start(name: "retained") { client in
            try await client.publish(topic: "Thuis/device/attic/lamp/set", text: "on", retain: true)
        }
        do {
            try await running.watcher.waitForMessage(
                topic: "Thuis/bridge/retained/state", text: "online", timeout: .seconds(20))
            let event = try await running.watcher.waitForMessage(topic: "Thuis/bridge/retained/event") {
                guard let event = JSONMessage($0) else { return false }
                return event.type == "command_rejected" && event.string("reason", contains: "retained")
                    && event.string("topic") == "Thuis/device/attic/lamp/set"
            }
            #expect(!event.retained)
            // Clear the retained command from the broker.
            try await running.watcher.publish(topic: "Thuis/device/attic/lamp/set", payload: [], retain: true)
        } catch {
            Issue.record("bridge output:\n\(running.bridge.outputText)")
            await running.stop()
            throw error
        }
        await running.stop()
    }

    @Test func sigtermMarksTheBridgeOfflineAndExitsZero() async throws {
        let running = try await Running.start(name: "term")
        do {
            try await running.watcher.waitForMessage(
                topic: "Thuis/bridge/term/state", text: "online", timeout: .seconds(20))
            let before = await running.watcher.received.count
            running.bridge.signal(SIGTERM)
            // Typically 0.1-0.3 s; the wait only bounds a hang.
            let termination = await running.bridge.waitForExit(timeout: .seconds(30))
            #expect(termination == .exited(0))
            try await running.watcher.waitForMessage(topic: "Thuis/bridge/term/state", text: "offline", from: before)
        } catch {
            Issue.record("bridge output:\n\(running.bridge.outputText)")
            await running.stop()
            throw error
        }
        await running.stop()
    }

    @Test func refusesAnInvalidConfigurationWithExitCode2() async throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write(
            "devices.toml", ConfigFixture(name: "bad name", zwave: .init(port: "/dev/nonexistent")).text)
        let bridge = try ChildProcess(
            executable: try BuiltProduct.executable(named: "thuis-bridge").path, arguments: ["run", "--config", config])
        #expect(await bridge.waitForExit(timeout: .seconds(20)) == .exited(2))
        await bridge.waitForOutputEnd(timeout: .seconds(5))
        #expect(bridge.outputText.contains("bridge.name"))
    }
}
