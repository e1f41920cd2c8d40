import BridgeCore
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import HummingbirdWebSocket
import NIOCore
import TestSupport
import Testing
import WebDashboard

/// The two roles on the wire: the control token (the wall tablet) switches this bridge's devices, the admin token
/// does everything; a `set` is a device command of this bridge's devices, for both; and the access rules a browser
/// or a proxy in front meets (Origin, exact Host, a proxy's Basic login, the Secure cookie).
@Suite(.timeLimit(.minutes(2))) struct DashboardRoleTests {
    static let admin = DashboardServerTests.secret
    static let tablet = "tablet-0123456789abcdef"
    let server = DashboardServerTests()

    typealias Messages = DashboardServerTests.Messages

    func string(_ value: JSONValue?) -> String {
        if case .string(let text)? = value { return text }
        return ""
    }

    /// Sends one request on its own connection, with `authority` as its `Host`.
    func raw(
        _ port: Int?, _ path: String, authority: String = "localhost", headers: HTTPFields = [:]
    ) async throws -> TestClient.Response {
        let client = TestClient(host: "localhost", port: try #require(port))
        client.connect()
        defer { Task { try? await client.shutdown() } }
        return try await client.execute(.init(path, method: .get, authority: authority, headers: headers))
    }

    /// The headers of a WebSocket upgrade, plus `extra`.
    func upgrade(_ extra: HTTPFields) -> HTTPFields {
        var headers: HTTPFields = [
            .connection: "Upgrade", .upgrade: "websocket", .secWebSocketKey: "dGhlIHNhbXBsZSBub25jZQ==",
            .secWebSocketVersion: "13",
        ]
        headers.append(contentsOf: extra)
        return headers
    }

    // MARK: Routes

    @Test func theControlTokenGetsTheTilesAndNotTheNetworkPages() async throws {
        try await server.withServer(token: Self.admin, control: Self.tablet) { _, client in
            let bearer: HTTPFields = [.authorization: "Bearer \(Self.tablet)"]
            for path in ["/", "/events", "/assets/app.js", "/api/devices", "/health", "/metrics"] {
                #expect(try await client.execute(uri: path, method: .get, headers: bearer).status == .ok, "\(path)")
            }
            for path in ["/network", "/node/2"] {
                let refused = try await client.execute(uri: path, method: .get, headers: bearer)
                #expect(refused.status == .forbidden, "\(path)")
                #expect(String(buffer: refused.body).contains("admin"), "\(path)")
                let admin = try await client.execute(
                    uri: path, method: .get, headers: [.authorization: "Bearer \(Self.admin)"])
                #expect(admin.status == .ok, "\(path)")
            }
        }
    }

    @Test func healthAndMetricsBeyondLoopbackNeedATokenAndHealthSaysOnlyOkOrNot() async throws {
        let listen = WebListenAddress(host: "0.0.0.0", port: 0)
        try await server.withServer(token: Self.admin, control: Self.tablet, listen: listen) { fixture, client in
            for path in ["/health", "/metrics"] {
                #expect(try await client.execute(uri: path, method: .get).status == .unauthorized, "\(path)")
                let tablet = try await client.execute(
                    uri: path, method: .get, headers: [.authorization: "Bearer \(Self.tablet)"])
                #expect(tablet.status == .ok, "\(path)")
            }
            let bearer: HTTPFields = [.authorization: "Bearer \(Self.admin)"]
            var health = try await client.execute(uri: "/health", method: .get, headers: bearer)
            #expect(String(buffer: health.body) == #"{"status":"ok"}"#)
            await fixture.bridge.apply(.adapterAvailability(adapter: .zwave, online: false, reason: "unplugged"))
            health = try await client.execute(uri: "/health", method: .get, headers: bearer)
            #expect(health.status == .serviceUnavailable)
            #expect(String(buffer: health.body) == #"{"status":"degraded"}"#)
        }
    }

    // MARK: WebSocket messages

    @Test func theControlTokenSwitchesItsDevicesAndIsRefusedRequestsWithAReason() async throws {
        try await server.withServer(token: Self.admin, control: Self.tablet) { fixture, client in
            let headers: HTTPFields = [.authorization: "Bearer \(Self.tablet)"]
            try await client.ws("/ws", configuration: .init(additionalHeaders: headers)) { inbound, outbound, _ in
                var messages = Messages(inbound)
                #expect(try await messages.next()["role"] == "control")
                for verb in ["include", "exclude", "remove_failed", "set_config", "cec_tx", "devices"] {
                    try await outbound.write(
                        .text(#"{"type":"request","verb":"\#(verb)","payload":{"transaction":"t"}}"#))
                    let refused = try await messages.next { $0["type"] == "error" }
                    let reason = string(refused["error"])
                    #expect(reason.contains("\(verb) is a bridge request"), "\(reason)")
                    #expect(reason.contains("admin token"), "\(reason)")
                }
                try await outbound.write(
                    .text(#"{"type":"set","topic":"Thuis/device/bedroom/light/set","payload":30}"#))
                await fixture.zwave.waitForCommands(1)
                #expect(await fixture.zwave.executed.map(\.1) == [.level(30)])
                #expect(await fixture.requests.handled.isEmpty, "a refused request reached the bridge")
            }
        }
    }

    /// A door lock: the wall tablet may lock it, only the admin unlock it (refused with the reason, nothing sent).
    @Test(arguments: [admin, tablet])
    func onlyTheAdminUnlocksADoor(token: String) async throws {
        let door = DeviceDescriptor(
            address: DeviceAddress(room: "hall", name: "door"), kind: .lock, source: .zwave(node: 7, instance: nil))
        let devices = [DashboardServerTests.light, door]
        try await server.withServer(token: Self.admin, control: Self.tablet, devices: devices) { fixture, client in
            let headers: HTTPFields = [.authorization: "Bearer \(token)"]
            try await client.ws("/ws", configuration: .init(additionalHeaders: headers)) { inbound, outbound, _ in
                var messages = Messages(inbound)
                _ = try await messages.next()
                try await outbound.write(
                    .text(#"{"type":"set","topic":"Thuis/device/hall/door/set","payload":"unlock"}"#))
                if token == Self.tablet {
                    let refused = try await messages.next { $0["type"] == "error" }
                    #expect(string(refused["error"]).contains("unlocking a door needs the admin token"))
                }
                try await outbound.write(
                    .text(#"{"type":"set","topic":"Thuis/device/hall/door/set","payload":"lock"}"#))
                let sent = token == Self.admin ? 2 : 1
                await fixture.zwave.waitForCommands(sent)
                let expected: [DeviceCommand] =
                    token == Self.admin ? [.setLocked(false), .setLocked(true)] : [.setLocked(true)]
                #expect(await fixture.zwave.executed.map(\.1) == expected)
            }
        }
    }

    @Test func theAdminTokenSwitchesDevicesAndSendsRequests() async throws {
        try await server.withServer(token: Self.admin, control: Self.tablet) { fixture, client in
            let headers: HTTPFields = [.authorization: "Bearer \(Self.admin)"]
            try await client.ws("/ws", configuration: .init(additionalHeaders: headers)) { inbound, outbound, _ in
                var messages = Messages(inbound)
                #expect(try await messages.next()["role"] == "admin")
                try await outbound.write(
                    .text(#"{"type":"set","topic":"Thuis/device/living/ambilight/set","payload":"on"}"#))
                await fixture.zwave.waitForCommands(1)
                #expect(await fixture.zwave.executed.map(\.1) == [.on])
                try await outbound.write(
                    .text(#"{"type":"request","verb":"include","payload":{"transaction":"a-1","timeout_s":5}}"#))
                let response = try await messages.next { $0["type"] == "response" }
                #expect(response["response"]?["transaction"] == "a-1")
                #expect(response["response"]?["status"] == "ok")
            }
        }
    }

    @Test(arguments: [admin, tablet])
    func aSetTakesOnlyThisBridgesDeviceCommands(token: String) async throws {
        try await server.withServer(token: Self.admin, control: Self.tablet) { fixture, client in
            let headers: HTTPFields = [.authorization: "Bearer \(token)"]
            try await client.ws("/ws", configuration: .init(additionalHeaders: headers)) { inbound, outbound, _ in
                var messages = Messages(inbound)
                _ = try await messages.next()
                let refused: [(String, String)] = [
                    (#""topic":"Thuis/bridge/living/state","payload":"online""#, #"bridge "living"'s state"#),
                    (#""topic":"Thuis/bridge/kitchen/state","payload":"offline""#, #"bridge "kitchen"'s state"#),
                    (#""topic":"Thuis/device/bedroom/light/availability","payload":"offline""#, "availability"),
                    (#""topic":"Thuis/device/kitchen/fridge/set","payload":"off""#, "not a device of this bridge"),
                    (#""topic":"Thuis/device/bedroom/light/power","payload":"5""#, "unknown suffix"),
                    (#""topic":"Other/device/bedroom/light/set","payload":"on""#, "wrong prefix"),
                    (#""topic":"Thuis/bridge/living/request/include","payload":"{}""#, "device command topic"),
                    (
                        #""topic":"Thuis/device/bedroom/light/set","payload":"on","retain":true"#,
                        #"unknown key "retain""#
                    ),
                ]
                for (fields, reason) in refused {
                    try await outbound.write(.text(#"{"type":"set",\#(fields)}"#))
                    let reply = try await messages.next { $0["type"] == "error" }
                    #expect(string(reply["error"]).contains(reason), "\(fields): \(reply)")
                }
                // A device command of this bridge still goes through.
                try await outbound.write(
                    .text(#"{"type":"set","topic":"Thuis/device/living/ambilight/set","payload":"off"}"#))
                await fixture.zwave.waitForCommands(1)
                #expect(await fixture.zwave.executed.map(\.1) == [.off])
            }
        }
    }

    // MARK: Access on the wire

    @Test func aWebSocketUpgradeIsRefusedWithExactlyTheRightStatus() async throws {
        try await server.withServer(token: Self.admin, control: Self.tablet) { _, client in
            let port = client.port
            // A foreign Origin with a valid cookie: 403.
            let foreign = try await raw(
                port, "/ws",
                headers: upgrade([.origin: "http://evil.example", .cookie: "thuis_token=\(Self.admin)"]))
            #expect(foreign.status == .forbidden)
            // A wrong token, however given: 401.
            for (path, headers) in [
                ("/ws", [.authorization: "Bearer \(Self.admin.dropLast())x"]),
                ("/ws", [.cookie: "thuis_token=\(Self.tablet.dropLast())x"]),
                ("/ws?token=\(Self.admin.dropLast())x", [:]), ("/ws", [:]),
            ] as [(String, HTTPFields)] {
                let response = try await raw(port, path, headers: upgrade(headers))
                #expect(response.status == .unauthorized, "\(path) \(headers)")
            }
        }
    }

    @Test func theOpenDashboardAnswersOnlyToThisMachinesNamesExactly() async throws {
        try await server.withServer { _, client in
            let port = client.port
            for authority in ["1", "0:1", "evil.example", "127.0.0.1.evil.example"] {
                #expect(try await raw(port, "/", authority: authority).status == .forbidden, "Host: \(authority)")
                let socket = try await raw(port, "/ws", authority: authority, headers: upgrade([:]))
                #expect(socket.status == .forbidden, "Host: \(authority) on /ws")
            }
            for authority in ["localhost", "127.0.0.1:\(port ?? 0)", "[::1]:\(port ?? 0)"] {
                #expect(try await raw(port, "/", authority: authority).status == .ok, "Host: \(authority)")
            }
        }
    }

    @Test func aProxysBasicLoginDoesNotHideTheCookie() async throws {
        try await server.withServer(token: Self.admin, control: Self.tablet) { _, client in
            let headers: HTTPFields = [
                .authorization: "Basic dXNlcjpwYXNzd29yZA==", .cookie: "thuis_token=\(Self.tablet)",
            ]
            #expect(try await client.execute(uri: "/", method: .get, headers: headers).status == .ok)
            try await client.ws("/ws", configuration: .init(additionalHeaders: headers)) { inbound, _, _ in
                var messages = Messages(inbound)
                let snapshot = try await messages.next()
                #expect(snapshot["role"] == "control")
            }
        }
    }

    @Test(arguments: [false, true])
    func theCookieIsSecureBehindATLSProxy(secure: Bool) async throws {
        try await server.withServer(token: Self.admin, secureCookie: secure) { _, client in
            let response = try await client.execute(uri: "/?token=\(Self.admin)", method: .get)
            let cookie = try #require(response.headers[.setCookie])
            #expect(cookie.hasSuffix("; Secure") == secure, "\(cookie)")
        }
    }
}
