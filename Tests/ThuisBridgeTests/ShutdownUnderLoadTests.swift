import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing
import ZWaveEmulator

/// The systemd unit's promise: SIGTERM ends the bridge within the unit's `TimeoutStopSec` (after which systemd kills
/// it and the network cache is lost), here under load: 50 emulated nodes, 20 dashboards connected on the WebSocket
/// and an inclusion running. The real `thuis-bridge run` as a child process, a real mosquitto, the emulated stick.
@Suite(.endToEnd) struct ShutdownUnderLoadTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `TimeoutStopSec` of `udev/thuis-bridge.service`, in seconds.
    static func unitStopTimeout() throws -> Int {
        let unit = try String(
            contentsOf: repository.appendingPathComponent("udev/thuis-bridge.service"), encoding: .utf8)
        guard
            let line = unit.split(separator: "\n").first(where: { $0.hasPrefix("TimeoutStopSec=") }),
            let seconds = Int(line.dropFirst("TimeoutStopSec=".count))
        else { throw TestSupportError("no TimeoutStopSec=<seconds> in udev/thuis-bridge.service") }
        return seconds
    }

    /// Nodes 2-51: FGD212 dimmers and binary switches, every one mapped.
    static let nodes = Array(2...51).map(UInt8.init)

    static var network: NetworkDescription {
        NetworkDescription(
            nodes: nodes.map { id in
                id % 2 == 0
                    ? NodeDescription(id: id, kind: .fgd212, name: "dimmer \(id)", level: 0, loads: [40])
                    : NodeDescription(id: id, kind: .binarySwitch, name: "switch \(id)", switches: [false])
            })
    }

    static var devices: [ConfigFixture.ZWaveDevice] {
        nodes.map { .init(node: Int($0), room: "load", name: "n\($0)") }
    }

    /// Every node's interview complete, as the inventory reports it.
    static func interviewed(_ message: MQTTMessage) -> Bool {
        guard let devices = try? JSONSerialization.jsonObject(with: Data(message.payload)) as? [[String: Any]] else {
            return false
        }
        let complete = devices.filter {
            $0["adapter"] as? String == "zwave" && $0["interview_stage"] as? String == "Complete"
        }
        return Set(complete.compactMap { $0["node"] as? Int }) == Set(nodes.map(Int.init))
    }

    @Test func sigtermUnderLoadExitsZeroWithTheCacheWrittenWithinTheUnitsStopTimeout() async throws {
        let limit = try Self.unitStopTimeout()
        let directory = try TemporaryDirectory(prefix: "thuis-stop-load")
        defer { directory.remove() }
        let broker = try await MosquittoBroker.start()
        let stick = ZWaveStickEmulator(network: Self.network)
        try stick.start(link: directory.file("zwave"))
        let watcher = try await MQTTTestClient.connect(port: broker.port)
        try await watcher.subscribe("Thuis/#")
        let state = directory.file("state")
        let config = try directory.write(
            "devices.toml",
            ConfigFixture(
                name: "load", mqtt: .local(port: broker.port),
                zwave: .init(port: directory.file("zwave"), stateDirectory: state, devices: Self.devices),
                web: .init(listen: "127.0.0.1:0")
            ).text)
        let bridge = try ZWaveHouse.startBridge(config: config, directory: directory)
        var sockets: [DashboardSocket] = []
        defer { for socket in sockets { socket.disconnect() } }
        do {
            guard
                let line = await bridge.waitForLine(
                    timeout: .seconds(30), where: { $0.text.contains("dashboard listening") }),
                let found = line.text.range(of: #"127\.0\.0\.1:[0-9]+"#, options: .regularExpression),
                let port = Int(line.text[found].split(separator: ":").last ?? "")
            else { throw TestSupportError("the bridge did not say where its dashboard listens") }
            // Every node interviewed: OpenZWave has the whole network to write.
            _ = try await watcher.waitForMessage(
                topic: "Thuis/bridge/load/devices", timeout: .seconds(300), where: Self.interviewed)
            for _ in 0..<20 { sockets.append(try DashboardSocket(port: port)) }
            let from = await watcher.received.count
            try await watcher.publish(
                topic: "Thuis/bridge/load/request/include", text: #"{"transaction":"t1","timeout_s":120}"#)
            _ = try await watcher.waitForMessage(topic: "Thuis/bridge/load/event", from: from, timeout: .seconds(15)) {
                $0.text.contains("\"inclusion_waiting\"")
            }
            #expect(stick.isInclusionActive)
            // OpenZWave wrote the cache once every node was queried: removed, it must be written again at the stop.
            let before = try FileManager.default.contentsOfDirectory(atPath: state).filter {
                $0.hasPrefix("ozwcache_") && $0.hasSuffix(".xml")  // the cache, not its kept copy (.complete)
            }
            for file in before { try FileManager.default.removeItem(atPath: state + "/" + file) }

            let signalled = ContinuousClock.now
            bridge.signal(SIGTERM)
            let termination = await bridge.waitForExit(timeout: .seconds(limit * 2))
            let took = ContinuousClock.now - signalled
            print("SIGTERM under load (50 nodes, 20 dashboards, inclusion) → exit: \(took)")
            if termination != .exited(0) { print("bridge output:\n\(bridge.outputText.suffix(20_000))") }
            #expect(termination == .exited(0), "\(String(describing: termination))")
            // Under a sanitizer (``TestTime``), the promise is scaled with every other bound.
            #expect(took <= TestTime.scaled(.seconds(limit)), "the stop took \(took), the unit allows \(limit) s")

            let cache = try FileManager.default.contentsOfDirectory(atPath: state).filter {
                $0.hasPrefix("ozwcache_") && $0.hasSuffix(".xml")  // the cache, not its kept copy (.complete)
            }
            let text = try cache.first.map { try String(contentsOfFile: state + "/" + $0, encoding: .utf8) } ?? ""
            #expect(cache.count == 1, "state dir: \(cache)")
            #expect(text.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("</Driver>"), "\(text.suffix(200))")
            let missing = Self.nodes.filter { !text.contains("<Node id=\"\($0)\"") }
            #expect(missing.isEmpty, "nodes missing from the cache: \(missing)")
            #expect(!stick.isInclusionActive, "the stick was left in inclusion")
        } catch {
            print("bridge output:\n\(bridge.outputText.suffix(20_000))")
            _ = await bridge.stop(timeout: .seconds(15))
            stick.stop()
            await watcher.close()
            await broker.stop()
            throw error
        }
        if bridge.isRunning { _ = await bridge.stop(timeout: .seconds(15)) }
        stick.stop()
        await watcher.close()
        await broker.stop()
    }
}
