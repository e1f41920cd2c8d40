import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import SystemSupport
import TestSupport
import Testing

/// several bridges on one broker, as real `thuis-bridge run` processes against a real mosquitto.
@Suite(.endToEnd) struct SeveralBridgesTests {
    /// A broker, a subscriber on everything under `Thuis/`, and bridges started on it.
    final class Broker: Sendable {
        let broker: MosquittoBroker
        let watcher: MQTTTestClient
        let directory: TemporaryDirectory

        init() async throws {
            broker = try await MosquittoBroker.start()
            directory = try TemporaryDirectory(prefix: "thuis-several")
            watcher = try await MQTTTestClient.connect(port: broker.port)
            try await watcher.subscribe("Thuis/#")
        }

        /// Starts `thuis-bridge run` for a bridge `name` serving the CEC devices `devices` (room/name, logical
        /// address 0...) on an adapter that is not plugged in: its devices are its own, and offline.
        func start(_ name: String, devices: [String] = [], file: String? = nil) throws -> ChildProcess {
            let cec = ConfigFixture.CEC(
                port: directory.file("no-cec-\(name)"),
                devices: devices.enumerated().map { index, device in
                    let parts = device.split(separator: "/").map(String.init)
                    return .init(address: index, room: parts[0], name: parts[1])
                })
            let fixture = ConfigFixture(name: name, mqtt: .local(port: broker.port), cec: devices.isEmpty ? nil : cec)
            let config = try directory.write(file ?? "\(name).toml", fixture.text)
            return try ChildProcess(
                executable: try BuiltProduct.executable(named: "thuis-bridge").path,
                arguments: ["run", "--config", config], workingDirectory: directory.path)
        }

        var mark: Int { get async { await watcher.received.count } }

        /// The `command_rejected` events of bridge `name` after `from`, by topic.
        func rejected(by name: String, from: Int) async -> [String] {
            await watcher.received.dropFirst(from).filter { $0.topic == "Thuis/bridge/\(name)/event" }
                .compactMap { try? JSONValue.parse($0.payload) }.filter { $0["type"] == "command_rejected" }
                .compactMap { if case .string(let topic)? = $0["topic"] { topic } else { nil } }
        }

        /// Waits for a `command_rejected` of bridge `name` about `topic`, after `from`.
        func waitForRejection(by name: String, of topic: String, from: Int) async throws {
            _ = try await watcher.waitForMessage(topic: "Thuis/bridge/\(name)/event", from: from) {
                $0.text.contains("command_rejected") && $0.text.contains("\"topic\":\"\(topic)\"")
            }
        }

        func stop(_ bridges: [ChildProcess]) async {
            for bridge in bridges { _ = await bridge.stop(timeout: .seconds(10)) }
            await watcher.close()
            await broker.stop()
            directory.remove()
        }
    }

    @Test func eachBridgeAnswersOnlyForItsOwnDevicesAndOneReportsWhatNoBridgeServes() async throws {
        let house = try await Broker()
        let alpha = try house.start("alpha", devices: ["living/tv"])
        let beta = try house.start("beta", devices: ["bedroom/tv"])
        do {
            for (name, device) in [("alpha", "living/tv"), ("beta", "bedroom/tv")] {
                try await house.watcher.waitForMessage(topic: "Thuis/bridge/\(name)/state", text: "online")
                try await house.watcher.waitForMessage(topic: "Thuis/device/\(device)/availability", text: "offline")
            }
            // beta's device, then a typo no bridge serves: beta answers for its device (its adapter is away);
            // alpha, whose name sorts first, reports the typo and says nothing about beta's device.
            var mark = await house.mark
            try await house.watcher.publish(topic: "Thuis/device/bedroom/tv/set", text: "on")
            try await house.watcher.publish(topic: "Thuis/device/bedroom/tv/set", text: "on", retain: true)
            try await house.watcher.publish(topic: "Thuis/device/bedroom/tvv/set", text: "on")
            try await house.waitForRejection(by: "alpha", of: "Thuis/device/bedroom/tvv/set", from: mark)
            try await house.waitForRejection(by: "beta", of: "Thuis/device/bedroom/tv/set", from: mark)
            // The other way round: the typo first, then alpha's device: beta, answering for nothing of it, is
            // silent (its fence: its own device, after).
            let second = await house.mark
            try await house.watcher.publish(topic: "Thuis/device/living/tvv/set", text: "on")
            try await house.watcher.publish(topic: "Thuis/device/living/tv/set", text: "on")
            try await house.watcher.publish(topic: "Thuis/device/bedroom/tv/get", text: "")
            try await house.waitForRejection(by: "alpha", of: "Thuis/device/living/tv/set", from: second)
            try await house.waitForRejection(by: "beta", of: "Thuis/device/bedroom/tv/get", from: second)
            #expect(
                await house.rejected(by: "alpha", from: mark)
                    == ["Thuis/device/bedroom/tvv/set", "Thuis/device/living/tvv/set", "Thuis/device/living/tv/set"])
            #expect(
                await house.rejected(by: "beta", from: mark)
                    == ["Thuis/device/bedroom/tv/set", "Thuis/device/bedroom/tv/set", "Thuis/device/bedroom/tv/get"])
            // The retained command cleared (an empty retained message, which beta refuses as retained too).
            try await house.watcher.publish(topic: "Thuis/device/bedroom/tv/set", payload: [], retain: true)
            // alpha stops: beta sorts first among the online bridges and reports what no bridge serves.
            #expect(await alpha.stop(timeout: .seconds(60)) == .exited(0))
            try await house.watcher.waitForMessage(topic: "Thuis/bridge/alpha/state", text: "offline", from: mark)
            mark = await house.mark
            try await house.watcher.publish(topic: "Thuis/device/bedroom/tvv/set", text: "on")
            try await house.waitForRejection(by: "beta", of: "Thuis/device/bedroom/tvv/set", from: mark)
        } catch {
            Issue.record("alpha:\n\(alpha.outputText.suffix(3000))\nbeta:\n\(beta.outputText.suffix(3000))")
            await house.stop([alpha, beta])
            throw error
        }
        await house.stop([alpha, beta])
    }

    /// A second bridge with a name already online refuses (exit 2, naming the running one's pid) before it takes
    /// the client id: the running bridge keeps its connection, its state stays `online`, and it keeps working.
    @Test func aSecondBridgeWithANameInUseRefusesAndTheRunningOneIsUndisturbed() async throws {
        try await CECHouse.with(name: "twice") { house in
            try await house.waitUntilReady()
            let mark = await house.mark
            let second = try ChildProcess(
                executable: try BuiltProduct.executable(named: "thuis-bridge").path,
                arguments: [
                    "run", "--config",
                    try house.directory.write(
                        "second.toml", ConfigFixture(name: "twice", mqtt: .local(port: house.broker.port)).text),
                ])
            #expect(await second.waitForExit(timeout: .seconds(30)) == .exited(2), "\(second.outputText)")
            await second.waitForOutputEnd(timeout: .seconds(5))
            #expect(second.outputText.contains("is in use"), "\(second.outputText)")
            #expect(second.outputText.contains("pid \(house.bridge.pid) on this machine"), "\(second.outputText)")
            // The running bridge: its commands work, its state never went offline, its session never taken over.
            try await house.send("/set", "on")
            try await house.waitFor("", "on", from: mark)
            let states = await house.watcher.received.dropFirst(mark).filter { $0.topic == "Thuis/bridge/twice/state" }
            #expect(states.isEmpty, "\(states.map(\.text))")
            #expect(!house.broker.output.contains { $0.contains("already connected") }, "\(house.broker.output)")
            #expect(house.bridge.isRunning)
        }
    }

    @Test func aBridgeKilledWithSigkillStartsAgainAtOnce() async throws {
        let house = try await Broker()
        var bridges = [try house.start("again")]
        do {
            try await house.watcher.waitForMessage(topic: "Thuis/bridge/again/state", text: "online")
            let mark = await house.mark
            bridges[0].kill()
            _ = await bridges[0].waitForExit(timeout: .seconds(10))
            // Started at once, whether or not the broker has published the will yet.
            bridges.append(try house.start("again"))
            let info = try await house.watcher.waitForMessage(topic: "Thuis/bridge/again/info", from: mark)
            #expect(try JSONValue.parse(info.payload)["pid"] == .int(Int(bridges[1].pid)), "\(info.text)")
            try await house.watcher.waitForMessage(topic: "Thuis/bridge/again/state", text: "online", from: mark)
            #expect(bridges[1].isRunning, "\(bridges[1].outputText)")
        } catch {
            Issue.record("\(bridges.last?.outputText.suffix(3000) ?? "")")
            await house.stop(bridges)
            throw error
        }
        await house.stop(bridges)
    }

    /// Publishes a retained `online` state and `info` for bridge `name`, as a bridge that is gone left them.
    static func leaveStaleState(
        _ house: Broker, name: String, host: String, machine: String, bootID: String, pid: Int32, keepAlive: Int
    ) async throws {
        let own = ProcessIdentity.current()
        let info = BridgeNameCheckFixture.info(
            ProcessIdentity(
                host: host, machine: machine, bootID: bootID, pidNamespace: own.pidNamespace, pid: pid, startTicks: 1),
            keepAlive: keepAlive)
        let mark = await house.mark
        try await house.watcher.publish(topic: "Thuis/bridge/\(name)/info", text: info, retain: true)
        try await house.watcher.publish(topic: "Thuis/bridge/\(name)/state", text: "online", retain: true)
        // The broker has both when the watcher gets them back.
        try await house.watcher.waitForMessage(topic: "Thuis/bridge/\(name)/state", text: "online", from: mark)
    }

    /// Waits until `bridge` has taken over the name `name` (its own `info` and `online`, after `from`) and logged the
    /// takeover; it keeps running.
    static func expectTakeover(_ house: Broker, by bridge: ChildProcess, name: String, from mark: Int) async throws {
        let pid = JSONValue.int(Int(bridge.pid))
        _ = try await house.watcher.waitForMessage(topic: "Thuis/bridge/\(name)/info", from: mark) {
            (try? JSONValue.parse($0.payload))?["pid"] == pid
        }
        try await house.watcher.waitForMessage(topic: "Thuis/bridge/\(name)/state", text: "online", from: mark)
        let logged = await bridge.waitForLine(timeout: .seconds(10)) { $0.text.contains("bridge name taken over") }
        #expect(logged != nil, "\(bridge.outputText)")
        #expect(bridge.isRunning, "\(bridge.outputText)")
    }

    /// A retained `online` that a plain client published, with no bridge and no `info` behind it: the bridge asks,
    /// gets no answer within 5 s, logs the takeover and serves (its `online`, its devices' states).
    @Test func aRetainedOnlineWithNoBridgeBehindItIsTakenOver() async throws {
        let house = try await Broker()
        let mark = await house.mark
        try await house.watcher.publish(topic: "Thuis/bridge/orphan/state", text: "online", retain: true)
        try await house.watcher.waitForMessage(topic: "Thuis/bridge/orphan/state", text: "online", from: mark)
        let bridge = try house.start("orphan", devices: ["attic/tv"])
        do {
            try await Self.expectTakeover(house, by: bridge, name: "orphan", from: await house.mark)
            #expect(bridge.outputText.contains("no info on who runs it"), "\(bridge.outputText)")
            try await house.watcher.waitForMessage(topic: "Thuis/device/attic/tv/availability", text: "offline")
        } catch {
            Issue.record("\(bridge.outputText.suffix(3000))")
            await house.stop([bridge])
            throw error
        }
        await house.stop([bridge])
    }

    /// `online` left by a process of this machine that no longer runs: a bridge killed before the broker noticed
    /// (this boot, its pid gone), or one that ran before the machine restarted (a power cut took a broker on the
    /// same machine down with it, and the broker kept the `online` on disk): the new one starts at once.
    @Test(arguments: [false, true])
    func aStaleOnlineOfAProcessOfThisMachineThatEndedDoesNotStopIt(beforeThisBoot: Bool) async throws {
        let house = try await Broker()
        let ended = try ChildProcess(executable: "/bin/true")
        _ = await ended.waitForExit(timeout: .seconds(10))
        let own = ProcessIdentity.current()
        try await Self.leaveStaleState(
            house, name: "stale", host: own.host, machine: own.machine,
            bootID: beforeThisBoot ? "an-earlier-boot" : own.bootID, pid: ended.pid, keepAlive: 30)
        let bridge = try house.start("stale")
        do {
            let pid = JSONValue.int(Int(bridge.pid))
            _ = try await house.watcher.waitForMessage(topic: "Thuis/bridge/stale/info") {
                (try? JSONValue.parse($0.payload))?["pid"] == pid
            }
            let why = beforeThisBoot ? "before it restarted" : "has ended"
            #expect(bridge.outputText.contains(why), "\(bridge.outputText)")
        } catch {
            Issue.record("\(bridge.outputText.suffix(3000))")
            await house.stop([bridge])
            throw error
        }
        await house.stop([bridge])
    }

    /// `online` of another machine's bridge: a bridge that answers keeps the name (the newcomer exits 2 at once);
    /// one whose last will then arrives frees it (the newcomer starts); one that does neither keeps it, and the
    /// newcomer says how to clear a stale state.
    @Test func anotherMachinesBridgeKeepsTheNameWhileItAnswersOrUntilItsWillArrives() async throws {
        let house = try await Broker()
        var bridges = [try house.start("remote")]
        do {
            try await house.watcher.waitForMessage(topic: "Thuis/bridge/remote/state", text: "online")
            // The running bridge's info as if it ran on another machine: it is asked, and answers.
            let own = ProcessIdentity.current()
            let elsewhere = ProcessIdentity(
                host: "pi-hall", machine: "another-machine", bootID: "another-boot", pidNamespace: own.pidNamespace,
                pid: bridges[0].pid, startTicks: 1)
            let faked = BridgeNameCheckFixture.info(elsewhere, keepAlive: 30)
            let echo = await house.mark
            try await house.watcher.publish(topic: "Thuis/bridge/remote/info", text: faked, retain: true)
            try await house.watcher.waitForMessage(topic: "Thuis/bridge/remote/info", text: faked, from: echo)
            let newcomer = try house.start("remote", file: "newcomer.toml")
            bridges.append(newcomer)
            #expect(await newcomer.waitForExit(timeout: .seconds(30)) == .exited(2), "\(newcomer.outputText)")
            await newcomer.waitForOutputEnd(timeout: .seconds(5))
            #expect(newcomer.outputText.contains("answers"), "\(newcomer.outputText)")
            #expect(newcomer.outputText.contains("host pi-hall"), "\(newcomer.outputText)")
            #expect(bridges[0].isRunning)
            #expect(await bridges[0].stop(timeout: .seconds(60)) == .exited(0))

            // Gone without a will yet (another machine's): the newcomer waits for it, and starts when it comes.
            try await Self.leaveStaleState(
                house, name: "remote", host: "pi-hall", machine: "another-machine", bootID: "another-boot", pid: 4242,
                keepAlive: 30)
            let waiting = try house.start("remote", file: "waiting.toml")
            bridges.append(waiting)
            let asked = await waiting.waitForLine(timeout: .seconds(30)) { $0.text.contains("waiting up to") }
            #expect(asked != nil, "\(waiting.outputText)")
            let mark = await house.mark
            try await house.watcher.publish(topic: "Thuis/bridge/remote/state", text: "offline", retain: true)
            try await house.watcher.waitForMessage(topic: "Thuis/bridge/remote/state", text: "online", from: mark)
            #expect(waiting.isRunning, "\(waiting.outputText)")
            #expect(await waiting.stop(timeout: .seconds(60)) == .exited(0))

            // Neither an answer nor a will: the `online` is stale, and the newcomer takes the name over.
            try await Self.leaveStaleState(
                house, name: "remote", host: "pi-hall", machine: "another-machine", bootID: "another-boot", pid: 4242,
                keepAlive: 30)
            let takeover = try house.start("remote", file: "takeover.toml")
            bridges.append(takeover)
            try await Self.expectTakeover(house, by: takeover, name: "remote", from: await house.mark)
            #expect(takeover.outputText.contains("host pi-hall, pid 4242"), "\(takeover.outputText)")
        } catch {
            Issue.record("\(bridges.map { $0.outputText.suffix(2000) })")
            await house.stop(bridges)
            throw error
        }
        await house.stop(bridges)
    }
}

/// The `info` a bridge publishes, for a test to leave one of its own.
enum BridgeNameCheckFixture {
    static func info(_ identity: ProcessIdentity, keepAlive: Int) -> String {
        JSONValue.object([
            ("host", .string(identity.host)), ("machine", .string(identity.machine)), ("pid", .int(Int(identity.pid))),
            ("boot_id", .string(identity.bootID)),
            ("pid_namespace", .string(identity.pidNamespace)), ("process_start", .int(Int(identity.startTicks))),
            ("started", "2026-11-25T06:00:00Z"), ("keepalive_s", .int(keepAlive)),
        ]).serialized
    }
}
