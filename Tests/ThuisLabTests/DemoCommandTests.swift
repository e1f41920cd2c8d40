import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing

/// The real `thuis-lab demo` process, as the README's quick start runs it: its private broker, the
/// emulated house, the feed, and a clean stop by `--exit-after` or Ctrl-C (SIGINT).
@Suite(.endToEnd) struct DemoCommandTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A started demo and what its banner says.
    struct Demo {
        let process: ChildProcess
        let port: Int
        /// The demo's temporary directory (from the banner's log path).
        let directory: String

        static func start(_ arguments: [String]) async throws -> Demo {
            let process = try ChildProcess(
                executable: try BuiltProduct.executable(named: "thuis-lab").path,
                arguments: [
                    "demo", "--config", DemoCommandTests.repository.appendingPathComponent("devices.toml").path,
                ]
                    + arguments)
            let banner = await process.waitForLine(timeout: .seconds(30)) { $0.text.contains("  bridge  ") }
            let watch = await process.waitForLine(timeout: .seconds(5)) {
                $0.text.contains("mosquitto_sub -h 127.0.0.1 -p ")
            }
            guard let banner, let watch,
                let port = watch.text.split(separator: " ").drop(while: { $0 != "-p" }).dropFirst().first.flatMap({
                    Int($0)
                }),
                let log = banner.text.components(separatedBy: "log: ").last
            else {
                _ = await process.stop(timeout: .seconds(15))
                throw TestSupportError("the demo printed no banner:\n\(process.outputText)")
            }
            return Demo(process: process, port: port, directory: (log as NSString).deletingLastPathComponent)
        }

        /// Output lines of the feed (after the banner).
        var lines: [String] { process.output.map(\.text) }
    }

    @Test func exitAfterServesTheHouseTakesCommandsAndStopsCleanly() async throws {
        let demo = try await Demo.start(["--exit-after", "30"])
        let watcher = try await MQTTTestClient.connect(port: demo.port)
        do {
            try await watcher.subscribe("Thuis/#")
            // States of a Z-Wave dimmer and of the CEC TV, as the emulated hardware reports them.
            let light = try await watcher.waitForMessage(topic: "Thuis/device/bedroom/light", timeout: .seconds(20))
            #expect(Int(light.text).map { (0...99).contains($0) } == true, "\(light.text)")
            let tv = try await watcher.waitForMessage(topic: "Thuis/device/living/tv", timeout: .seconds(20))
            #expect(["on", "standby"].contains(tv.text))
            let socket = try await watcher.waitForMessage(topic: "Thuis/device/living/ambilight", timeout: .seconds(20))
            #expect(["on", "off"].contains(socket.text))

            // A command through the demo's broker changes the emulated dimmer, and the state comes back.
            let mark = await watcher.received.count
            try await watcher.publish(topic: "Thuis/device/bedroom/light/set", text: "40")
            try await watcher.waitForMessage(
                topic: "Thuis/device/bedroom/light", text: "40", from: mark, timeout: .seconds(15))

            // The dashboard is on, at a free loopback port it prints once bound.
            let dashboard = await demo.process.waitForLine(timeout: .seconds(20)) {
                $0.text.range(of: #"dashboard  http://127\.0\.0\.1:[0-9]+/ "#, options: .regularExpression) != nil
            }
            #expect(dashboard != nil, "no dashboard URL in the demo's output")

            // The feed shows both directions, the command marked as one.
            try await MQTTTestClient.poll(timeout: .seconds(5), "the command and the new state in the feed") {
                let lines = demo.lines
                return lines.contains { $0.contains("» cmd  Thuis/device/bedroom/light/set") && $0.hasSuffix(" 40") }
                    && lines.contains {
                        $0.range(of: #"  Thuis/device/bedroom/light +40$"#, options: .regularExpression) != nil
                    }
            }
            // It stops by itself: the bridge says offline, everything is removed, exit 0.
            let exit = await demo.process.waitForExit(timeout: .seconds(45))
            #expect(exit == .exited(0), "\(demo.process.outputText)")
            try await watcher.waitForMessage(
                topic: "Thuis/bridge/living/state", text: "offline", from: mark, timeout: .seconds(5))
            await demo.process.waitForOutputEnd(timeout: .seconds(5))
            let lines = demo.lines
            #expect(lines.contains { $0.contains("  house  ") }, "the house did nothing in 30 s")
            #expect(lines.last?.contains("stopped cleanly") == true, "\(lines.suffix(5))")
            #expect(!FileManager.default.fileExists(atPath: demo.directory))
            #expect(!FreePort.isAccepting(demo.port), "the private broker still runs")
            Self.expectQuiet(demo.process)
        } catch {
            await watcher.close()
            _ = await demo.process.stop(timeout: .seconds(15))
            Issue.record("demo output:\n\(demo.process.outputText)")
            throw error
        }
        await watcher.close()
    }

    @Test func ctrlCStopsTheBridgeFirstThenTheBrokerAndTheEmulators() async throws {
        let demo = try await Demo.start([])
        let watcher = try await MQTTTestClient.connect(port: demo.port)
        do {
            try await watcher.subscribe("Thuis/#")
            try await watcher.waitForMessage(
                topic: "Thuis/device/living/tv/availability", text: "online", timeout: .seconds(30))
            #expect(FileManager.default.fileExists(atPath: demo.directory + "/zwave-stick"))
            // The README's demo tour: the TV, its input, and the inclusion of the waiting node 10.
            var tour = await watcher.received.count
            try await watcher.publish(topic: "Thuis/device/living/tv/set", text: "on")
            try await watcher.waitForMessage(
                topic: "Thuis/device/living/tv", text: "on", from: tour, timeout: .seconds(15))
            tour = await watcher.received.count
            try await watcher.publish(topic: "Thuis/device/living/tv/input/set", text: "chromecast")
            try await watcher.waitForMessage(
                topic: "Thuis/device/living/tv/input", text: "chromecast", from: tour, timeout: .seconds(15))
            try await watcher.publish(topic: "Thuis/bridge/living/request/include", text: #"{"transaction":"1"}"#)
            try await watcher.waitForMessage(
                topic: "Thuis/device/unassigned/node10", text: "off", timeout: .seconds(30))
            let included = try await watcher.waitForJSON(
                topic: "Thuis/bridge/living/response/include", timeout: .seconds(30))
            #expect(included.string("status") == "ok", "\(included)")

            let mark = await watcher.received.count
            demo.process.signal(SIGINT)
            let exit = await demo.process.waitForExit(timeout: .seconds(30))
            #expect(exit == .exited(0), "\(demo.process.outputText)")
            // The broker outlived the bridge: the bridge's goodbye reached the subscriber.
            try await watcher.waitForMessage(
                topic: "Thuis/device/bedroom/light/availability", text: "offline", from: mark)
            try await watcher.waitForMessage(topic: "Thuis/bridge/living/state", text: "offline", from: mark)
            await demo.process.waitForOutputEnd(timeout: .seconds(5))
            #expect(demo.lines.contains { $0.contains("received SIGINT (Ctrl-C): stopping") })
            #expect(!FileManager.default.fileExists(atPath: demo.directory))
            #expect(!FreePort.isAccepting(demo.port), "the private broker still runs")
            Self.expectQuiet(demo.process)
        } catch {
            await watcher.close()
            _ = await demo.process.stop(timeout: .seconds(15))
            Issue.record("demo output:\n\(demo.process.outputText)")
            throw error
        }
        await watcher.close()
    }

    @Test func usesAGivenBrokerAndLeavesItRunning() async throws {
        let broker = try await MosquittoBroker.start()
        let watcher = try await MQTTTestClient.connect(port: broker.port)
        let demo = try await Demo.start(["--broker", "127.0.0.1:\(broker.port)"])
        do {
            #expect(demo.port == broker.port)
            try await watcher.subscribe("Thuis/#")
            try await watcher.waitForMessage(topic: "Thuis/bridge/living/state", text: "online", timeout: .seconds(20))
            _ = try await watcher.waitForMessage(topic: "Thuis/device/bedroom/light", timeout: .seconds(20))
            demo.process.signal(SIGTERM)
            #expect(await demo.process.waitForExit(timeout: .seconds(30)) == .exited(0))
            #expect(FreePort.isAccepting(broker.port), "the demo stopped a broker it did not start")
            Self.expectQuiet(demo.process)
        } catch {
            _ = await demo.process.stop(timeout: .seconds(15))
            Issue.record("demo output:\n\(demo.process.outputText)")
            await watcher.close()
            await broker.stop()
            throw error
        }
        await watcher.close()
        await broker.stop()
    }

    @Test func refusesAnUnusableBrokerAddress() async throws {
        let demo = try ChildProcess(
            executable: try BuiltProduct.executable(named: "thuis-lab").path,
            arguments: ["demo", "--broker", "nohost", "--exit-after", "1"])
        let exit = await demo.waitForExit(timeout: .seconds(30))
        if exit == nil { _ = await demo.stop() }
        #expect(exit == .exited(2), "usage errors exit 2: \(String(describing: exit))")
        await demo.waitForOutputEnd(timeout: .seconds(5))
        #expect(demo.outputText.contains("expected host:port"), "\(demo.outputText)")
        #expect(!demo.outputText.contains("mosquitto_sub"), "it started anyway")
    }

    /// Nothing on stderr, no stack trace, no log line on the terminal (logs go to the demo's log file).
    static func expectQuiet(_ process: ChildProcess, sourceLocation: SourceLocation = #_sourceLocation) {
        let errors = process.output.filter { $0.stream == .stderr }.map(\.text)
        #expect(errors.isEmpty, "stderr: \(errors)", sourceLocation: sourceLocation)
        let noisy = process.output.map(\.text).filter {
            $0.contains("Fatal error") || $0.contains("Stack dump") || $0.contains(" info thuis-bridge")
                || $0.contains("warning thuis-bridge")
        }
        #expect(noisy.isEmpty, "\(noisy)", sourceLocation: sourceLocation)
    }
}
