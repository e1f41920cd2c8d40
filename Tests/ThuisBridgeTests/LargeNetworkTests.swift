import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import Logging
import MQTTDriver
import TestSupport
import Testing
import ZWaveEmulator

/// Z-Wave's limit: the controller and 231 nodes (node ids 2-232), FGD212 dimmers and PowerNode 6 strips, 806
/// devices. A start from the network cache makes OpenZWave report every node's values in one burst, and the
/// subscription brings every device's retained availability at once: the bridge must publish every state and drop
/// nothing, as it does at two nodes.
@Suite(.endToEnd) struct LargeNetworkTests {
    static let nodes = Array(2...232).map(UInt8.init)

    static var network: NetworkDescription {
        NetworkDescription(
            nodes: nodes.map { id in
                id % 2 == 0
                    ? NodeDescription(id: id, kind: .fgd212, name: "dimmer \(id)", level: 0, loads: [40])
                    : NodeDescription(
                        id: id, kind: .powernode6, name: "powernode \(id)",
                        switches: [true, false, true, false, true, false], loads: [10, 0, 20, 0, 5, 0])
            })
    }

    /// Every mapped device: a dimmer per FGD212, a socket per PowerNode endpoint.
    static var devices: [ConfigFixture.ZWaveDevice] {
        nodes.flatMap { id -> [ConfigFixture.ZWaveDevice] in
            id % 2 == 0
                ? [.init(node: Int(id), room: "big", name: "d\(id)")]
                : (1...6).map { .init(node: Int(id), instance: $0, room: "big", name: "p\(id)_\($0 as Int)") }
        }
    }

    /// Runs the bridge on a broker of its own until every device's state is published; returns the messages of the
    /// run and the bridge's output, after a clean stop.
    static func run(directory: TemporaryDirectory, name: String) async throws -> (
        messages: [MQTTMessage], output: String
    ) {
        let broker = try await MosquittoBroker.start()
        let watcher = try await MQTTTestClient.connect(port: broker.port)
        try await watcher.subscribe("Thuis/#")
        let file = try directory.write(
            "\(name).toml",
            ConfigFixture(
                name: "big", logLevel: .notice, mqtt: .local(port: broker.port),
                zwave: .init(
                    port: directory.file("zwave"), stateDirectory: directory.file("state"), devices: devices)
            ).text)
        let bridge = try ChildProcess(
            executable: try BuiltProduct.executable(named: "thuis-bridge").path, arguments: ["run", "--config", file],
            workingDirectory: directory.path)
        let started = ContinuousClock.now
        let expected = Set(devices.map { "Thuis/device/\($0.room)/\($0.name)" })
        var missing = expected
        let deadline = ContinuousClock.now + TestTime.scaled(.seconds(900))
        while !missing.isEmpty, ContinuousClock.now < deadline, bridge.isRunning {
            let seen = Set(await watcher.recorder.messages.map(\.topic))
            missing.subtract(seen)
            if !missing.isEmpty { try await Task.sleep(for: .milliseconds(200)) }
        }
        print("\(name) start, 231 nodes: \(expected.count - missing.count) states in \(ContinuousClock.now - started)")
        let stopped = await bridge.stop(timeout: .seconds(60))
        let messages = await watcher.recorder.messages
        await watcher.close()
        await broker.stop()
        #expect(stopped == .exited(0), "the bridge did not stop cleanly: \(bridge.outputText.suffix(2000))")
        #expect(
            missing.isEmpty,
            "\(missing.count) of \(expected.count) states never published, e.g. \(missing.sorted().prefix(5))")
        return (messages, bridge.outputText)
    }

    @Test func aStartFromTheCacheAtTheLimitPublishesEveryStateAndDropsNothing() async throws {
        let directory = try TemporaryDirectory(prefix: "thuis-large")
        defer { directory.remove() }
        let stick = ZWaveStickEmulator(network: Self.network)
        try stick.start(link: directory.file("zwave"))
        defer { stick.stop() }

        let cold = try await Self.run(directory: directory, name: "cold")
        let cache = try FileManager.default.contentsOfDirectory(atPath: directory.file("state"))
        try #require(cache.contains { $0.hasPrefix("ozwcache_") }, "no network cache after the cold start: \(cache)")

        let cached = try await Self.run(directory: directory, name: "cached")
        for (start, run) in [("cold", cold), ("cached", cached)] {
            let dropped = run.messages.filter {
                $0.topic == "Thuis/bridge/big/event" && $0.text.contains("messages_dropped")
            }
            #expect(dropped.isEmpty, "\(start) start: \(dropped.map(\.text))")
            // The bridge's own lines (OpenZWave's statistics print "Messages dropped and not delivered: ... 0").
            let lines = run.output.split(separator: "\n").filter {
                $0.contains("dropped") && !$0.contains("[OpenZWave]")
            }
            #expect(lines.isEmpty, "\(start) start: \(lines.prefix(5))")
        }
    }
}
