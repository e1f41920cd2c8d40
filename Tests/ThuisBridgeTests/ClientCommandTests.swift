import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing
import ZWaveEmulator

/// The client commands' failure modes and configuration parameters, as real processes.
@Suite(.endToEnd) struct ClientCommandTests {
    /// The command gives up by its own deadlines (2.5 s for the broker, 1.5 s for the bridge's state): a wait
    /// without an end would not exit at all. How long it took is printed; the bound only catches a hang.
    @Test func noBridgeRunningIsAClearError() async throws {
        let broker = try await MosquittoBroker.start()
        let directory = try TemporaryDirectory(prefix: "thuis-client")
        defer { directory.remove() }
        let config = try directory.write(
            "devices.toml", ConfigFixture(name: "nobody", mqtt: .local(port: broker.port)).text)
        let started = ContinuousClock.now
        let devices = try InclusionHouse.cli(["devices", "--config", config], directory: directory)
        defer { devices.kill() }
        let exit = await devices.waitForExit(timeout: .seconds(60))
        print("thuis-bridge devices, no bridge running: exit after \(ContinuousClock.now - started)")
        await broker.stop()
        #expect(exit == .exited(1), "\(devices.outputText)")
        #expect(devices.outputText.contains("\"nobody\""), "\(devices.outputText)")
        #expect(devices.outputText.contains("127.0.0.1:\(broker.port)"), "\(devices.outputText)")

        // No broker at all: the same.
        let port = try FreePort.next()
        let unreachable = try directory.write(
            "unreachable.toml", ConfigFixture(name: "nobody", mqtt: .local(port: port)).text)
        let again = ContinuousClock.now
        let include = try InclusionHouse.cli(["include", "--config", unreachable], directory: directory)
        defer { include.kill() }
        #expect(await include.waitForExit(timeout: .seconds(60)) == .exited(1), "\(include.outputText)")
        print("thuis-bridge include, no broker: exit after \(ContinuousClock.now - again)")
        #expect(include.outputText.contains("127.0.0.1:\(port)"), "\(include.outputText)")
    }

    /// Every client command, with a broker and no bridge: it ends by its own deadlines (2.5 s for the broker,
    /// 1.5 s for the bridge's retained state) with exit 1 and a message naming the bridge and the broker, as the
    /// README's exit codes say. How long it took is printed; the bound only catches a hang.
    @Test(arguments: [
        ["devices"], ["include"], ["exclude"], ["heal"], ["heal", "2"], ["refresh", "2"], ["remove-failed", "2"],
        ["config", "get", "2", "28"], ["config", "set", "2", "28", "1"],
    ])
    func everyClientCommandWithoutABridgeEndsWithExitOne(_ command: [String]) async throws {
        let broker = try await MosquittoBroker.start()
        let directory = try TemporaryDirectory(prefix: "thuis-client")
        defer { directory.remove() }
        let config = try directory.write(
            "devices.toml", ConfigFixture(name: "nobody", mqtt: .local(port: broker.port)).text)
        let started = ContinuousClock.now
        let cli = try InclusionHouse.cli(command + ["--config", config], directory: directory)
        defer { cli.kill() }
        let exit = await cli.waitForExit(timeout: .seconds(60))
        print("thuis-bridge \(command.joined(separator: " ")), no bridge: exit after \(ContinuousClock.now - started)")
        await broker.stop()
        #expect(exit == .exited(1), "\(cli.outputText)")
        #expect(cli.outputText.contains("\"nobody\""), "\(cli.outputText)")
        #expect(cli.outputText.contains("127.0.0.1:\(broker.port)"), "\(cli.outputText)")
    }

    @Test func usageAndConfigurationErrorsExitTwo() async throws {
        let directory = try TemporaryDirectory(prefix: "thuis-client")
        defer { directory.remove() }
        let missingArgument = try InclusionHouse.cli(["config", "get", "2"], directory: directory)
        #expect(await missingArgument.waitForExit(timeout: .seconds(10)) == .exited(2))
        let missingFile = try InclusionHouse.cli(
            ["devices", "--config", directory.file("absent.toml")], directory: directory)
        #expect(await missingFile.waitForExit(timeout: .seconds(10)) == .exited(2), "\(missingFile.outputText)")
    }

    /// one rule for every entry point. The command line checks its arguments with the bridge's
    /// own request parser: it refuses exactly what the bridge would refuse, with the bridge's reason, before it
    /// connects (exit 2; nothing is sent: no broker listens on the configured port).
    @Test(
        arguments: [
            (["include", "--timeout", "0"], BridgeRequest.Verb.include, ["timeout_s": 0, "secure": false]),
            (["exclude", "--timeout", "601"], .exclude, ["timeout_s": 601]),
            (["refresh", "0"], .refresh, ["node": 0]),
            (["heal", "233"], .heal, ["node": 233]),
            (["remove-failed", "300"], .removeFailed, ["node": 300]),
            (["config", "get", "2", "0"], .getConfig, ["node": 2, "parameter": 0]),
            (
                ["config", "set", "2", "28", "1", "--size", "3"], .setConfig,
                ["node": 2, "parameter": 28, "value": 1, "size": 3]
            ),
            (
                ["config", "set", "2", "28", "4294967296"], .setConfig,
                ["node": 2, "parameter": 28, "value": 4_294_967_296]
            ),
            (["associations", "0"], .associations, ["node": 0]),
            (["associate", "2", "2", "2"], .associate, ["node": 2, "group": 2, "target": "2"]),
            (["dissociate", "2", "0", "4"], .dissociate, ["node": 2, "group": 0, "target": "4"]),
            (["associate", "2", "2", "4:x"], .associate, ["node": 2, "group": 2, "target": "4:x"]),
        ] as [([String], BridgeRequest.Verb, KeyValuePairs<String, JSONValue>)])
    func theCommandLineRefusesWhatTheBridgeRefusesWithTheSameReason(
        arguments: [String], verb: BridgeRequest.Verb, request: KeyValuePairs<String, JSONValue>
    ) async throws {
        let directory = try TemporaryDirectory(prefix: "thuis-client")
        defer { directory.remove() }
        let config = try directory.write(
            "devices.toml", ConfigFixture(name: "rules", mqtt: .local(port: try FreePort.next())).text)
        let expected: String
        do {
            _ = try BridgeRequest.parse(verb: verb, arguments: .object(request.map { ($0.key, $0.value) }))
            Issue.record("the bridge accepts \(request)")
            return
        } catch {
            expected = error.reason
        }
        let cli = try InclusionHouse.cli(arguments + ["--config", config], directory: directory)
        #expect(await cli.waitForExit(timeout: .seconds(10)) == .exited(2), "\(cli.outputText)")
        await cli.waitForOutputEnd(timeout: .seconds(5))
        #expect(cli.outputText.contains(expected), "expected the bridge's reason \"\(expected)\": \(cli.outputText)")
    }

    @Test func configSetThenGetReadsTheValueBackFromTheDevice() async throws {
        try await InclusionHouse.with(name: "client-config", joinAfter: nil) { house in
            #expect(house.stick.configParameter(node: 2, 28) == 0)
            let set = try house.cli(["config", "set", "2", "28", "1"])
            #expect(await set.waitForExit(timeout: .seconds(20)) == .exited(0), "\(set.outputText)")
            #expect(set.outputText.split(separator: "\n").last == "1", "\(set.outputText)")
            #expect(house.stick.configParameter(node: 2, 28) == 1)
            let get = try house.cli(["config", "get", "2", "28"])
            #expect(await get.waitForExit(timeout: .seconds(20)) == .exited(0), "\(get.outputText)")
            #expect(get.output.filter { $0.stream == .stdout }.map(\.text) == ["1"], "\(get.outputText)")
            // Bad arguments get one response each, status error with the reason.
            let from = await house.mark
            let requests = "Thuis/bridge/\(house.bridgeName)/request/"
            let cases: [(command: String, payload: String, reason: String)] = [
                (
                    "set_config", #"{"transaction":"a","node":2,"parameter":28,"value":1,"size":3}"#,
                    "size must be 1, 2 or 4"
                ),
                (
                    "get_config", #"{"transaction":"b","node":"two","parameter":28}"#,
                    "argument \\\"node\\\" must be an integer"
                ),
                ("get_config", #"{"transaction":"c","node":2}"#, "missing argument \\\"parameter\\\""),
                ("include", #"{"transaction":"d","timeout_s":0}"#, "must be within 1...600"),
                ("refresh", #"{"transaction":"e"#, "malformed JSON"),  // malformed JSON
            ]
            for item in cases {
                try await house.watcher.publish(topic: requests + item.command, text: item.payload)
                let response = try await house.watcher.waitForMessage(
                    topic: "Thuis/bridge/\(house.bridgeName)/response/\(item.command)", from: from,
                    timeout: .seconds(10)
                ) { $0.text.contains(#""status":"error""#) && $0.text.contains(item.reason) }
                #expect(response.text.contains("error"))
            }
            // Bad arguments are refused by the bridge with the reason.
            let unknown = try house.cli(["config", "get", "77", "28"])
            #expect(await unknown.waitForExit(timeout: .seconds(20)) == .exited(1))
            #expect(unknown.outputText.contains("node 77 is not in the Z-Wave network"), "\(unknown.outputText)")
        }
    }

    @Test func healAndRemoveFailedReachTheController() async throws {
        try await InclusionHouse.with(name: "client-heal", joinAfter: nil) { house in
            // heal <node>: a neighbour update for that node reaches the stick.
            let neighbourUpdate = Task {
                await house.stick.waitForHostFrame(timeout: TestTime.scaled(.seconds(20))) {
                    $0.frame.function == 0x48 && $0.frame.payload.first == 2
                }
            }
            let heal = try house.cli(["heal", "2"])
            #expect(await heal.waitForExit(timeout: .seconds(20)) == .exited(0), "\(heal.outputText)")
            #expect(heal.outputText.contains("heal started for node 2"), "\(heal.outputText)")
            #expect(await neighbourUpdate.value != nil, "no REQUEST_NODE_NEIGHBOR_UPDATE for node 2 at the stick")
            let all = try house.cli(["heal"])
            #expect(await all.waitForExit(timeout: .seconds(20)) == .exited(0), "\(all.outputText)")
            #expect(all.outputText.contains("the whole network"), "\(all.outputText)")

            // remove-failed on a node that still answers: refused with the reason, the node stays.
            let alive = try house.cli(["remove-failed", "2"])
            #expect(await alive.waitForExit(timeout: .seconds(30)) == .exited(1), "\(alive.outputText)")
            #expect(alive.outputText.contains("is not failed"), "\(alive.outputText)")
            #expect(house.stick.includedNodeIDs.contains(2))

            // Dead: removed from the controller, its retained topics cleared.
            house.stick.setDead(node: 2, true)
            let from = await house.mark
            let removed = try house.cli(["remove-failed", "2"])
            #expect(await removed.waitForExit(timeout: .seconds(30)) == .exited(0), "\(removed.outputText)")
            #expect(!house.stick.includedNodeIDs.contains(2))
            try await house.waitForEvent("node_removed", from: from, timeout: .seconds(10))
            _ = try await house.watcher.waitForMessage(
                topic: "Thuis/device/bedroom/light/availability", from: from, timeout: .seconds(10)
            ) { $0.payload.isEmpty }
        }
    }
}
