import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing

/// Security: credentials from `password_file` against a mosquitto that requires them (never shown
/// anywhere), TLS with a CA made by the test (a wrong CA is refused with a clear error), and the systemd unit.
@Suite(.endToEnd) struct SecurityTests {
    static let password = "Zq7-secret-Thuis-31415"
    static let brokerUsers = ["thuis": password, "watcher": "watcher-pw"]

    /// Broker requiring credentials, the watcher logged in as `watcher`, the bridge as `thuis` with the
    /// password in `passwordFile`.
    static func authenticatedOptions(passwordFile: String) -> FaultHouse.Options {
        var options = FaultHouse.Options()
        options.broker = MosquittoBroker.Options(allowAnonymous: false, users: brokerUsers)
        options.mqtt.username = "thuis"
        options.mqtt.passwordFile = passwordFile
        options.watcher = {
            $0.username = "watcher"
            $0.password = "watcher-pw"
        }
        options.bridgeArguments = ["--log-level", "trace"]
        return options
    }

    @Test func passwordFromAFileLogsInAndIsNeverShown() async throws {
        let secrets = try TemporaryDirectory(prefix: "thuis-secret")
        defer { secrets.remove() }
        let passwordFile = try secrets.write("mqtt-password", Self.password + "\n")
        try await FaultHouse.with(name: "auth", options: Self.authenticatedOptions(passwordFile: passwordFile)) {
            house in
            try await house.waitFor(topic: house.stateTopic, "online", timeout: .seconds(30))
            try await house.waitForZWaveOnline()
            // Exercise events and the inventory: a rejected command and a devices request.
            let mark = await house.mark
            try await house.publish(house.topic("attic/lamp", "/set"), "on")
            try await house.waitForEvent("command_rejected", from: mark)
            try await house.publish("Thuis/bridge/auth/request/devices", "")
            _ = try await house.watcher.waitForMessage(topic: "Thuis/bridge/auth/response/devices", from: mark)
            _ = try await house.watcher.waitForMessage(topic: house.devicesTopic)

            // Stop the bridge so its whole output (including shutdown) is in.
            #expect(await house.bridge.stop(timeout: .seconds(60)) == .exited(0))
            await house.bridge.waitForOutputEnd(timeout: .seconds(5))
            let output = house.bridge.outputText
            #expect(output.contains("MQTT connected"), "the trace-level log was captured")
            #expect(!output.contains(Self.password), "the password appears in the bridge's output")
            let messages = await house.watcher.received
            #expect(messages.count > 10)
            let leaks = messages.filter { $0.topic.contains(Self.password) || $0.text.contains(Self.password) }
            #expect(leaks.isEmpty, "the password was published on \(leaks.map(\.topic))")
        }
    }

    @Test func aWrongPasswordIsRefusedClearlyAndRetriedWithoutShowingIt() async throws {
        let secrets = try TemporaryDirectory(prefix: "thuis-secret")
        defer { secrets.remove() }
        let wrong = "Wrong-\(Self.password)"
        let passwordFile = try secrets.write("mqtt-password", wrong + "\n")
        var options = Self.authenticatedOptions(passwordFile: passwordFile)
        options.zwave = false
        try await FaultHouse.with(name: "badauth", options: options) { house in
            // It keeps retrying (with backoff) and says why each time.
            try await MQTTTestClient.poll(timeout: .seconds(30), "three refused connection attempts") {
                house.bridge.output.filter { $0.text.contains("MQTT connect failed") }.count >= 3
            }
            #expect(house.bridge.isRunning)
            let failures = house.bridge.output.filter { $0.text.contains("MQTT connect failed") }.map(\.text)
            #expect(failures.allSatisfy { $0.lowercased().contains("not authori") }, "\(failures)")
            #expect(!house.bridge.outputText.contains(wrong), "the password appears in the bridge's output")
            #expect(await house.watcher.received(on: house.stateTopic).isEmpty, "the bridge must not get in")
        }
    }

    @Test func tlsWithTheTestCAConnects() async throws {
        let pki = try TemporaryDirectory(prefix: "thuis-pki")
        defer { pki.remove() }
        let authority = try await TestCertificateAuthority.make(in: pki, name: "good")
        var options = FaultHouse.Options()
        options.zwave = false
        options.broker = MosquittoBroker.Options(tls: authority.brokerFiles)
        options.mqtt.caFile = authority.caFile
        options.watcher = { $0.caFile = authority.caFile }
        try await FaultHouse.with(name: "tls", options: options) { house in
            try await house.waitFor(topic: house.stateTopic, "online", timeout: .seconds(30))
            #expect(house.bridge.outputText.contains("mqtts://"), "the bridge says it uses TLS")
            let mark = await house.mark
            try await house.publish("Thuis/bridge/tls/request/devices", "")
            let response = try await house.watcher.waitForJSON(
                topic: "Thuis/bridge/tls/response/devices", from: mark
            )
            #expect(response.string("status") == "ok", "\(response)")
        }
    }

    @Test func tlsWithAWrongCAIsRefusedWithAClearError() async throws {
        let pki = try TemporaryDirectory(prefix: "thuis-pki")
        defer { pki.remove() }
        let server = try await TestCertificateAuthority.make(in: pki, name: "server")
        let other = try await TestCertificateAuthority.make(in: pki, name: "other")
        var options = FaultHouse.Options()
        options.zwave = false
        options.broker = MosquittoBroker.Options(tls: server.brokerFiles)
        options.mqtt.caFile = other.caFile
        options.watcher = { $0.caFile = server.caFile }
        try await FaultHouse.with(name: "badtls", options: options) { house in
            try await MQTTTestClient.poll(timeout: .seconds(30), "two refused TLS connection attempts") {
                house.bridge.output.filter { $0.text.contains("MQTT connect failed") }.count >= 2
            }
            #expect(house.bridge.isRunning, "it keeps retrying")
            let failures = house.bridge.output.filter { $0.text.contains("MQTT connect failed") }.map(\.text)
            #expect(failures.allSatisfy { $0.lowercased().contains("certificate") }, "\(failures)")
            #expect(await house.watcher.received(on: house.stateTopic).isEmpty, "the bridge must not get in")
        }
    }

    @Test func theSystemdUnitIsHardenedAndVerifies() async throws {
        guard let analyze = ChildProcess.locate("systemd-analyze") else {
            throw TestSupportError("systemd-analyze not found: install it with `apt-get install systemd`")
        }
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let unit = try String(
            contentsOf: repository.appendingPathComponent("udev/thuis-bridge.service"), encoding: .utf8)
        let directives = unit.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for required in [
            "User=thuis-bridge", "SupplementaryGroups=dialout video", "NoNewPrivileges=yes", "ProtectSystem=strict",
            "StateDirectory=thuis-bridge", "StateDirectoryMode=0700", "CapabilityBoundingSet=",
        ] {
            #expect(directives.contains(required), "the unit lacks \(required)")
        }
        #expect(!directives.contains { $0.hasPrefix("User=root") || $0.hasPrefix("AmbientCapabilities") })

        let binary = try BuiltProduct.executable(named: "thuis-bridge").path
        let local = unit.replacingOccurrences(of: "ExecStart=/usr/local/bin/thuis-bridge", with: "ExecStart=\(binary)")
        #expect(local != unit, "ExecStart points at /usr/local/bin/thuis-bridge")
        let verified = try await Self.verify(local, analyze: analyze)
        #expect(verified.status == .exited(0), "\(verified.lines)")
        #expect(verified.lines.isEmpty, "systemd-analyze verify complained:\n\(verified.lines.joined(separator: "\n"))")

        // The check can fail: an unknown directive in the same unit is reported.
        let broken = local.replacingOccurrences(
            of: "NoNewPrivileges=yes", with: "NoNewPrivileges=yes\nNoNewPrivilegez=yes")
        let complaint = try await Self.verify(broken, analyze: analyze)
        #expect(complaint.lines.contains { $0.contains("NoNewPrivilegez") }, "\(complaint.lines)")
    }

    /// Runs `systemd-analyze verify` on `unit` in a temporary directory; returns its exit and the lines that
    /// mention the unit file.
    static func verify(_ unit: String, analyze: String) async throws -> (
        status: ChildProcess.Termination?, lines: [String]
    ) {
        let directory = try TemporaryDirectory(prefix: "thuis-unit")
        defer { directory.remove() }
        let path = try directory.write("thuis-bridge.service", unit)
        let child = try ChildProcess(
            executable: analyze, arguments: ["verify", path], workingDirectory: directory.path)
        let status = await child.waitForExit(timeout: .seconds(60))
        await child.waitForOutputEnd(timeout: .seconds(2))
        return (status, child.output.map(\.text).filter { $0.contains("thuis-bridge.service") })
    }
}
