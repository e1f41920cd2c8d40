import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import TestSupport
import Testing

/// A HomeKit controller for the end-to-end tests: aiohomekit (in the Home Assistant venv, where CI installs it
/// beside Home Assistant) running `HomeKit/hap_session.py`, one JSON command per line, one JSON answer per line;
/// events arrive as lines of their own.
final class HomeKitController: Sendable {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("HomeKit/hap_session.py").path

    /// Whether the venv's Python has aiohomekit.
    static func isInstalled() async -> Bool {
        guard HomeAssistantInstall.isInstalled else { return false }
        return (try? await ChildProcess.run(HomeAssistantInstall.python, ["-c", "import aiohomekit"])) != nil
    }

    static var missing: String {
        "no aiohomekit in \(HomeAssistantInstall.venv): \(HomeAssistantInstall.venv)/bin/pip install aiohomekit==3.2.14"
    }

    /// Fails (rather than skips) on aiohomekit's absence when it is required (`THUIS_REQUIRE_HA=1`, CI); else starts
    /// the real avahi-daemon.
    static func prepare() async throws {
        guard await isInstalled() else { throw TestSupportError(missing) }
        try await AvahiDaemon.shared.start()
    }

    /// Runs `session` with a controller on the bridge's service on `port` once it advertises itself unpaired (as
    /// avahi resolved it), printing the controller's output when the session fails, and stops the controller.
    static func with(
        port: Int, _ session: (HomeKitController, AvahiDaemon.BrowsedService) async throws -> Void
    ) async throws {
        let unpaired = try await HomeKitEndToEndTests.service(port: port, "unpaired (sf=1)") { $0.contains("sf=1") }
        let controller = try await HomeKitController(host: unpaired.address, port: port, txt: unpaired.txt)
        do {
            try await session(controller, unpaired)
        } catch {
            print("aiohomekit session:\n\(controller.process.outputText.suffix(5_000))")
            await controller.stop()
            throw error
        }
        await controller.stop()
    }

    let process: ChildProcess

    /// Starts a session against the HAP server at `host`:`port`, described by the TXT records avahi resolved.
    init(host: String, port: Int, txt: [String]) async throws {
        var records: [(String, JSONValue)] = []
        for record in txt {
            guard let equals = record.firstIndex(of: "=") else { continue }
            records.append((String(record[..<equals]), .string(String(record[record.index(after: equals)...]))))
        }
        process = try ChildProcess(
            executable: HomeAssistantInstall.python,
            arguments: [Self.script, host, String(port), JSONValue.object(records).serialized],
            standardInput: true)
        guard await process.waitForLine(timeout: .seconds(60), where: { $0.text == #"{"ready": true}"# }) != nil else {
            throw TestSupportError("the aiohomekit session did not start:\n\(process.outputText.suffix(3_000))")
        }
    }

    /// The JSON lines on stdout so far.
    var messages: [JSONValue] {
        process.output.filter { $0.stream == .stdout }.compactMap { try? JSONValue.parse(Array($0.text.utf8)) }
    }

    /// Sends `command` and returns its answer (`ok` true), or throws with the error aiohomekit raised.
    @discardableResult
    func send(_ command: JSONValue, timeout: Duration = .seconds(60)) async throws -> JSONValue {
        let answered = messages.filter { $0["ok"] != nil }.count
        try process.writeInput(command.serialized + "\n")
        let deadline = ContinuousClock.now.advanced(by: TestTime.scaled(timeout))
        while ContinuousClock.now < deadline {
            let answers = messages.filter { $0["ok"] != nil }
            if answers.count > answered {
                let answer = answers[answered]
                guard answer["ok"] == .bool(true) else {
                    throw TestSupportError("aiohomekit: \(command.serialized) failed: \(answer.serialized)")
                }
                return answer
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestSupportError(
            "aiohomekit: no answer to \(command.serialized) within \(TestTime.scaled(timeout)):\n\(process.outputText.suffix(3_000))"
        )
    }

    /// The events received so far: `aid.iid` to the value.
    var events: [(String, JSONValue)] {
        messages.compactMap { message -> [(String, JSONValue)]? in
            guard case .object(let values)? = message["event"] else { return nil }
            return values
        }.flatMap { $0 }
    }

    /// Waits for an event of `id` satisfying `predicate`, among those after the first `from`.
    func waitForEvent(
        _ id: String, from index: Int, timeout: Duration = .seconds(30), where predicate: (JSONValue) -> Bool
    ) async throws -> JSONValue {
        let deadline = ContinuousClock.now.advanced(by: TestTime.scaled(timeout))
        while ContinuousClock.now < deadline {
            let events = self.events
            if index < events.count, let match = events[index...].first(where: { $0.0 == id && predicate($0.1) }) {
                return match.1
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestSupportError(
            "no event for \(id) within \(TestTime.scaled(timeout)); events: \(events.map { "\($0.0)=\($0.1.serialized)" })"
        )
    }

    func stop() async {
        _ = try? await send(.object([("cmd", "quit")]), timeout: .seconds(10))
        _ = await process.stop()
    }
}

extension Trait where Self == ConditionTrait {
    /// Skipped (and reported so by the test runner) without aiohomekit, unless `THUIS_REQUIRE_HA=1` (CI), where the
    /// test runs and fails on its absence (``HomeKitController/prepare()``).
    static var aiohomekit: Self {
        .enabled(Comment(rawValue: HomeKitController.missing)) {
            if HomeAssistantInstall.isRequired { return true }
            return await HomeKitController.isInstalled()
        }
    }
}

/// The HAP services and characteristics of an `/accessories` answer, by their short type (`43` for Lightbulb):
/// aiohomekit turns them into full UUIDs.
struct AccessoryDatabase {
    let accessories: [JSONValue]

    init(_ answer: JSONValue) {
        if case .array(let list)? = answer["accessories"] { accessories = list } else { accessories = [] }
    }

    static func shortType(_ value: JSONValue?) -> String? {
        guard case .string(let uuid)? = value else { return nil }
        guard uuid.hasSuffix("-0000-1000-8000-0026BB765291"), let head = uuid.split(separator: "-").first else {
            return uuid
        }
        let trimmed = head.drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }

    /// `aid.iid` of the characteristic `characteristic` of the first service `service` whose Name is `name`
    /// (any name when nil).
    func id(service: String, characteristic: String, named name: String? = nil) -> String? {
        for accessory in accessories {
            guard case .int(let aid)? = accessory["aid"], case .array(let services)? = accessory["services"] else {
                continue
            }
            for candidate in services where Self.shortType(candidate["type"]) == service {
                guard case .array(let characteristics)? = candidate["characteristics"] else { continue }
                if let name {
                    let named = characteristics.contains {
                        Self.shortType($0["type"]) == "23" && $0["value"] == .string(name)
                    }
                    let informationNamed = self.name(ofAccessory: accessory) == name
                    guard named || informationNamed else { continue }
                }
                if let match = characteristics.first(where: { Self.shortType($0["type"]) == characteristic }),
                    case .int(let iid)? = match["iid"]
                {
                    return "\(aid).\(iid)"
                }
            }
        }
        return nil
    }

    /// `aid.iid` of the characteristic `characteristic` of the service `service` whose characteristic `labelType` has
    /// the value `label` (a Stateless Programmable Switch by its Service Label Index).
    func id(service: String, characteristic: String, labelType: String, label: Int) -> String? {
        for accessory in accessories {
            guard case .int(let aid)? = accessory["aid"], case .array(let services)? = accessory["services"] else {
                continue
            }
            for candidate in services where Self.shortType(candidate["type"]) == service {
                guard case .array(let characteristics)? = candidate["characteristics"],
                    characteristics.contains(where: {
                        Self.shortType($0["type"]) == labelType && $0["value"] == .int(label)
                    }),
                    let match = characteristics.first(where: { Self.shortType($0["type"]) == characteristic }),
                    case .int(let iid)? = match["iid"]
                else { continue }
                return "\(aid).\(iid)"
            }
        }
        return nil
    }

    /// The Name of an accessory's Accessory Information service.
    func name(ofAccessory accessory: JSONValue) -> String? {
        guard case .array(let services)? = accessory["services"] else { return nil }
        for service in services where Self.shortType(service["type"]) == "3E" {
            guard case .array(let characteristics)? = service["characteristics"] else { continue }
            if case .string(let name)? = characteristics.first(where: { Self.shortType($0["type"]) == "23" })?["value"]
            {
                return name
            }
        }
        return nil
    }
}
