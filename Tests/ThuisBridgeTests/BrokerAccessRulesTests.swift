import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing
import ZWaveEmulator

/// the broker access rules of the Security article, as they stand there, on a real mosquitto
/// with a password file made by mosquitto_passwd, in front of the real bridge and the emulated stick.
@Suite(.endToEnd) struct BrokerAccessRulesTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The ACL file between the article's markers.
    static func aclFromTheDocumentation() throws -> String {
        let article = try String(
            contentsOf: repository.appendingPathComponent("Sources/thuis-bridge/Documentation.docc/Security.md"),
            encoding: .utf8)
        guard let begin = article.range(of: "<!-- acl:begin"), let end = article.range(of: "<!-- acl:end -->") else {
            throw TestSupportError("Security.md has no acl:begin/acl:end markers")
        }
        let block = article[begin.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .dropFirst().filter { !$0.hasPrefix("```") }
        return block.joined(separator: "\n") + "\n"
    }

    static let users = ["bridge-living": "bridge-pw-1", "tablet": "tablet-pw-2", "admin": "admin-pw-3"]

    @Test func aTabletSwitchesDevicesButOnlyTheAdminReachesTheBridgesRequests() async throws {
        let directory = try TemporaryDirectory(prefix: "thuis-acl")
        defer { directory.remove() }
        let acl = try directory.write("thuis.acl", try Self.aclFromTheDocumentation())
        let broker = try await MosquittoBroker.start(
            .init(allowAnonymous: false, users: Self.users, logPackets: true, extraConfig: ["acl_file \(acl)"]))
        let stick = ZWaveStickEmulator(network: InclusionHouse.network(joinAfter: nil))
        try stick.start(link: directory.file("zwave"))
        let passwordFile = try directory.write("bridge-password", Self.users["bridge-living", default: ""] + "\n")
        let config = try directory.write(
            "devices.toml",
            ConfigFixture(
                name: "living",
                mqtt: .init(
                    host: "127.0.0.1", port: broker.port, username: "bridge-living", passwordFile: passwordFile),
                zwave: .init(
                    port: directory.file("zwave"), stateDirectory: directory.file("state"),
                    devices: [.init(node: 2, room: "bedroom", name: "light")])
            ).text)
        func login(_ user: String) async throws -> MQTTTestClient {
            try await MQTTTestClient.connect(port: broker.port, clientID: user) {
                $0.username = user
                $0.password = Self.users[user]
            }
        }
        let tablet = try await login("tablet")
        let admin = try await login("admin")
        let bridge = try ChildProcess(
            executable: try BuiltProduct.executable(named: "thuis-bridge").path,
            arguments: ["run", "--config", config],
            workingDirectory: directory.path)
        do {
            try await tablet.subscribe("Thuis/device/#")
            try await tablet.subscribe("Thuis/bridge/+/#")
            try await admin.subscribe("Thuis/bridge/living/#")
            try await admin.waitForMessage(topic: "Thuis/bridge/living/state", text: "online", timeout: .seconds(30))
            _ = try await tablet.waitForMessage(topic: "Thuis/device/bedroom/light", timeout: .seconds(60))

            // The tablet's /set switches the light.
            try await tablet.publish(topic: "Thuis/device/bedroom/light/set", text: "40")
            try await tablet.waitForMessage(topic: "Thuis/device/bedroom/light", text: "40")
            #expect(stick.level(node: 2) == 40)

            // The tablet's exclude is refused by the broker: no response, nothing on the wire.
            let before = broker.output.count
            let mark = await admin.received.count
            try await tablet.publish(topic: "Thuis/bridge/living/request/exclude", text: #"{"transaction":"tablet"}"#)
            try await MQTTTestClient.poll(timeout: .seconds(10), "the broker denying the tablet's request") {
                broker.output.dropFirst(before).contains {
                    $0.contains("Denied PUBLISH from tablet") && $0.contains("request/exclude")
                }
            }
            // The admin's request after it is answered; the tablet's got nothing.
            try await admin.publish(topic: "Thuis/bridge/living/request/devices", text: #"{"transaction":"fence"}"#)
            _ = try await admin.waitForMessage(topic: "Thuis/bridge/living/response/devices", from: mark)
            #expect(await admin.received(on: "Thuis/bridge/living/response/exclude").isEmpty)
            #expect(
                await admin.received.dropFirst(mark).allSatisfy {
                    !(JSONMessage($0)?.type?.hasPrefix("exclusion") ?? false)
                        && !$0.topic.hasSuffix("/response/exclude")
                })
            #expect(!stick.receivedHostFrames.contains { $0.frame.function == SerialFunction.removeNodeFromNetwork })

            // The admin's exclude reaches the bridge and the stick.
            try await admin.publish(
                topic: "Thuis/bridge/living/request/exclude", text: #"{"transaction":"admin","timeout_s":30}"#)
            _ = try await admin.waitForMessage(topic: "Thuis/bridge/living/event", from: mark) {
                JSONMessage($0)?.type == "exclusion_waiting"
            }
            #expect(stick.receivedHostFrames.contains { $0.frame.function == SerialFunction.removeNodeFromNetwork })
            try await admin.publish(topic: "Thuis/bridge/living/request/cancel", text: #"{"transaction":"c"}"#)
            _ = try await admin.waitForMessage(topic: "Thuis/bridge/living/response/exclude", from: mark)
            // The tablet follows the events (as the dashboard's control role does), never the responses.
            _ = try await tablet.waitForMessage(topic: "Thuis/bridge/living/event") {
                JSONMessage($0)?.type == "exclusion_waiting"
            }
            #expect(
                await tablet.received.allSatisfy { !$0.topic.contains("/response/") && !$0.topic.contains("/request/") }
            )
        } catch {
            Issue.record("bridge output:\n\(bridge.outputText.suffix(5000))")
            _ = await bridge.stop(timeout: .seconds(15))
            stick.stop()
            await tablet.close()
            await admin.close()
            await broker.stop()
            throw error
        }
        #expect(await bridge.stop(timeout: .seconds(60)) == .exited(0))
        stick.stop()
        await tablet.close()
        await admin.close()
        await broker.stop()
    }
}
