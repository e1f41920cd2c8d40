import Crypto
import Foundation
import HomeKit
import HomeKitClient
import LabSupport
import ZWaveEmulator

/// Scenario 12: HomeKit. The bridge of scenarios 1-2 with `[homekit]` on, a HAP controller (``HAPClient``)
/// connected to 127.0.0.1:port directly (no avahi): the pairing's time; a Brightness PUT → the Switch Multilevel
/// Set at the stick, interleaved with MQTT `/set`s timed the same way; a device report → the HAP event at the
/// subscribed controller beside the MQTT state of the same report; RSS with HomeKit on against a bridge without it.
enum HomeKitScenario {
    static let setupCode = "031-45-154"

    struct Outcome: Sendable {
        var hapSet: [Double] = []
        var mqttSet: [Double] = []
        /// Writes sent (each way, warm-up included) and those whose Set never reached the stick within 5 s (a PUT
        /// refused counts too).
        var writes = 0
        var hapLost = 0
        var mqttLost = 0
        /// Device report → the HAP event / the MQTT state, and the event's lag behind the state, per report.
        var event: [Double] = []
        var state: [Double] = []
        var eventLag: [Double] = []
        var reports = 0
        var statesMissing = 0
        var pairSetupMS = Double.nan
        var pairVerifyMS = Double.nan
        var accessories = 0
        var rssOff: MemoryReading?
        var rssOn: MemoryReading?
        var rssOnAfter: MemoryReading?
    }

    /// The Lightbulb's Brightness: its accessory and instance ids.
    struct Brightness {
        var aid: Int
        var iid: Int
        func body(_ field: String) -> [UInt8] {
            Array(#"{"characteristics":[{"aid":\#(aid),"iid":\#(iid),\#(field)}]}"#.utf8)
        }
    }

    static func run(run: BenchDirectory, samples: Int, log: @escaping @Sendable (String) -> Void) async throws
        -> Outcome
    {
        var outcome = Outcome()
        log("  bridge without HomeKit (RSS baseline)")
        let plain = try await DimmerSession.start(run: run, refreshAfterSet: false, label: "-homekit-off", log: log)
        outcome.rssOff = plain.bridge.process.memory
        await plain.stop()

        let port = try FreePort.next()
        let session = try await DimmerSession.start(
            run: run, refreshAfterSet: false, label: "-homekit-on",
            homeKit: { directory in
                """
                [homekit]
                enabled = true
                name = "Thuis bench"
                port = \(port)
                setup_code = "\(setupCode)"
                pairing_file = "\((directory as NSString).appendingPathComponent("homekit.json"))"

                """
            }, log: log)
        outcome.rssOn = session.bridge.process.memory
        do {
            let deadline = ContinuousClock.now + .seconds(30)
            while !FreePort.isAccepting(port) {
                guard ContinuousClock.now < deadline else {
                    throw BenchError("the HAP server never listened on \(port)")
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            // The whole controller session is bounded: an event that never comes fails the scenario.
            outcome = try await bounded(.seconds(120 + 2 * samples)) { [outcome] in
                try await controllerSession(session, port: port, samples: samples, outcome: outcome, log: log)
            }
            outcome.rssOnAfter = session.bridge.process.memory
        } catch {
            log("  failed: \(error)\n  bridge log tail:\n\(session.bridge.process.outputText.suffix(3000))")
            await session.stop()
            throw error
        }
        await session.stop()
        return outcome
    }

    /// `body`, cancelled with an error after `limit`.
    static func bounded<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T)
        async throws -> T
    {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw BenchError("the HomeKit controller's session did not finish within \(limit)")
            }
            return value
        }
    }

    static func controllerSession(
        _ session: DimmerSession, port: Int, samples: Int, outcome start: Outcome,
        log: @escaping @Sendable (String) -> Void
    ) async throws -> Outcome {
        var outcome = start
        let identifier = "bench-controller"
        let key = Curve25519.Signing.PrivateKey()
        let setupStart = ContinuousClock.now
        let m6 = try await HAPClient.connect(port: port) {
            try await $0.pairSetup(code: setupCode, identifier: identifier, key: key)
        }
        outcome.pairSetupMS = (ContinuousClock.now - setupStart).milliseconds
        guard m6.byte(.state) == 6, m6[.error] == nil else { throw BenchError("Pair Setup failed: \(m6)") }
        return try await HAPClient.connect(port: port) { client in
            let verifyStart = ContinuousClock.now
            let m4 = try await client.pairVerify(identifier: identifier, key: key)
            outcome.pairVerifyMS = (ContinuousClock.now - verifyStart).milliseconds
            guard m4[.error] == nil else { throw BenchError("Pair Verify failed: \(m4)") }
            log("  paired: setup \(ms(outcome.pairSetupMS)), verify \(ms(outcome.pairVerifyMS))")
            let accessories = try await client.response("GET", "/accessories")
            let (brightness, count) = try Self.brightness(accessories.body)
            outcome.accessories = count
            log("  \(count) accessories; 12a. Brightness PUT / MQTT /set → wire, \(samples) samples each")
            try await writes(client, brightness, session, samples: samples, into: &outcome)
            let subscribed = try await client.response("PUT", "/characteristics", body: brightness.body(#""ev":true"#))
            guard subscribed.status == 204 else {
                throw BenchError("subscribing: \(subscribed.status) \(subscribed.text)")
            }
            log("  12b. report → HAP event and MQTT state, \(samples) samples")
            try await reports(client, brightness, session, samples: samples, into: &outcome)
            return outcome
        }
    }

    /// Brightness PUT → Set at the stick, alternating with an MQTT `/set` measured the same way.
    static func writes(
        _ client: HAPClient, _ brightness: Brightness, _ session: DimmerSession, samples: Int,
        into outcome: inout Outcome
    ) async throws {
        for index in 0..<(samples + 20) {  // the first 20 warm up and are dropped
            for viaHomeKit in [false, true] {
                // 1-98: the same number as a level and as a Brightness.
                let level = DimmerSession.level(2 * index + (viaHomeKit ? 1 : 0))
                let frameMark = session.fixture.frames.mark
                let stateMark = session.watcher.inbox.mark
                let start = ContinuousClock.now
                var accepted = true
                if viaHomeKit {
                    let put = try await client.response(
                        "PUT", "/characteristics", body: brightness.body(#""value":\#(level)"#))
                    accepted = put.status == 204
                } else {
                    try await session.commander.publish(DimmerSession.setTopic, String(level))
                }
                outcome.writes += viaHomeKit ? 1 : 0
                var frame: Inbox<HostFrameEvent>.Stamped?
                if accepted {
                    frame = await session.fixture.frames.next(from: frameMark, timeout: .seconds(5)) {
                        $0.multilevelSetLevel(node: DimmerSession.node) == level
                    }
                }
                guard let frame else {
                    if viaHomeKit { outcome.hapLost += 1 } else { outcome.mqttLost += 1 }
                    continue
                }
                if index >= 20 {
                    if viaHomeKit {
                        outcome.hapSet.append((frame.time - start).milliseconds)
                    } else {
                        outcome.mqttSet.append((frame.time - start).milliseconds)
                    }
                }
                // The transaction ends (the state comes back) before the next write.
                _ = await session.watcher.wait(
                    topic: DimmerSession.stateTopic, text: String(level), from: stateMark, timeout: .seconds(5))
                _ = await session.fixture.waitForQuiet(.milliseconds(3), timeout: .seconds(2))
            }
        }
    }

    /// A Switch Multilevel Report at the stick → the Brightness event (read first: the socket holds it), then the
    /// MQTT state of the same report from the watcher's time-stamped inbox.
    static func reports(
        _ client: HAPClient, _ brightness: Brightness, _ session: DimmerSession, samples: Int,
        into outcome: inout Outcome
    ) async throws {
        // The first report differs from the last write's level: an unchanged value sends no event.
        var previous = Int(DimmerSession.level(2 * (samples + 19) + 1))
        for index in 0..<(samples + 20) {
            var level = Int(DimmerSession.level(index * 7))
            if level == previous { level = level % 98 + 1 }
            previous = level
            let mark = session.watcher.inbox.mark
            let start = ContinuousClock.now
            session.fixture.stick.injectReport(from: DimmerSession.node, [0x26, 0x03, UInt8(level)])
            outcome.reports += 1
            let arrived = try await event(client, brightness, level)
            let state = await session.watcher.wait(
                topic: DimmerSession.stateTopic, text: String(level), from: mark, timeout: .seconds(5))
            guard let state else {
                outcome.statesMissing += 1
                continue
            }
            if index >= 20 {
                outcome.event.append((arrived - start).milliseconds)
                outcome.state.append((state.time - start).milliseconds)
                outcome.eventLag.append((arrived - state.time).milliseconds)
            }
        }
    }

    /// The time the next Brightness event of `level` arrived; the connection's end is an error.
    static func event(_ client: HAPClient, _ brightness: Brightness, _ level: Int) async throws
        -> ContinuousClock.Instant
    {
        while true {
            guard let event = try await client.nextEvent() else {
                throw BenchError("the bridge closed the HAP connection before the event of \(level)")
            }
            let arrived = ContinuousClock.now
            if try value(event.body, brightness) == level { return arrived }
        }
    }

    /// The Lightbulb's Brightness in an `/accessories` body (HAP's short type names, 43 and 8), and the number of
    /// accessories.
    static func brightness(_ body: [UInt8]) throws -> (Brightness, Int) {
        let root = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        let accessories = root?["accessories"] as? [[String: Any]] ?? []
        for accessory in accessories {
            guard let aid = accessory["aid"] as? Int else { continue }
            for service in accessory["services"] as? [[String: Any]] ?? [] where shortType(service["type"]) == "43" {
                for characteristic in service["characteristics"] as? [[String: Any]] ?? []
                where shortType(characteristic["type"]) == "8" {
                    if let iid = characteristic["iid"] as? Int {
                        return (Brightness(aid: aid, iid: iid), accessories.count)
                    }
                }
            }
        }
        throw BenchError("no Lightbulb with a Brightness in /accessories: \(String(decoding: body, as: UTF8.self))")
    }

    /// The Brightness value an event carries, nil when it carries none.
    static func value(_ body: [UInt8], _ brightness: Brightness) throws -> Int? {
        let root = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        let items = root?["characteristics"] as? [[String: Any]] ?? []
        let item = items.first { $0["aid"] as? Int == brightness.aid && $0["iid"] as? Int == brightness.iid }
        return item?["value"] as? Int
    }

    /// `43` for `43` and for `00000043-0000-1000-8000-0026BB765291`.
    static func shortType(_ value: Any?) -> String? {
        guard let text = value as? String else { return nil }
        let head = text.split(separator: "-").first.map(String.init) ?? text
        let trimmed = head.drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : trimmed.uppercased()
    }
}
