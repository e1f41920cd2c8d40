import BridgeCore
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import Synchronization
import TestSupport
import Testing
import WebDashboard

/// The dashboard's server through Hummingbird's test harness, on a real socket (`.live`), over the real bridge core
/// with fake hardware: the HTTP endpoints, the WebSocket (snapshot, live changes, commands through the bridge's own
/// validation, error replies to bad frames) and the token on every request and on the WebSocket upgrade.
@Suite(.timeLimit(.minutes(2))) struct DashboardServerTests {
    static let secret = "0123456789abcdef0123456789abcdef"
    static let light = DeviceDescriptor(
        address: DeviceAddress(room: "bedroom", name: "light"), kind: .dimmer, source: .zwave(node: 2, instance: nil),
        metered: true)
    static let ambilight = DeviceDescriptor(
        address: DeviceAddress(room: "living", name: "ambilight"), kind: .socket, source: .zwave(node: 3, instance: 4))

    /// The bridge over fakes, its dashboard hub and server, and the fake hardware.
    struct Fixture: Sendable {
        let bridge: Bridge
        let mqtt: FakeMQTTPort
        let zwave: FakeDeviceBackend
        let requests: FakeRequestHandler
        let hub: DashboardHub
        let server: DashboardServer
    }

    final class Flag: Sendable {
        let value = Mutex(true)
    }

    /// Runs `body` against a live server (admin token `token`, none for the open loopback dashboard; control token
    /// `control`).
    func withServer(
        token: String? = nil, control: String? = nil,
        listen: WebListenAddress = WebListenAddress(host: "127.0.0.1", port: 0), secureCookie: Bool = false,
        devices: [DeviceDescriptor] = [light, ambilight],
        _ body: @Sendable @escaping (Fixture, any TestClientProtocol) async throws -> Void
    ) async throws {
        let mqtt = FakeMQTTPort()
        let zwave = FakeDeviceBackend(adapter: .zwave)
        let requests = FakeRequestHandler(verbs: [.include, .cancel, .nodeStatistics, .networkStats])
        let hub = DashboardHub(
            identity: BridgeIdentity(name: "living"),
            scenes: [ZWaveSceneConfig(node: 2, scene: 26, topic: "Thuis/scene/movie", payload: "on")],
            metrics: DashboardMetrics())
        let bridge = Bridge(
            identity: BridgeIdentity(name: "living"), devices: devices,
            scenes: [ZWaveSceneConfig(node: 2, scene: 26, topic: "Thuis/scene/movie", payload: "on")],
            backends: [zwave], requestHandlers: [requests], frontEnds: [hub], mqtt: mqtt,
            logger: Logger(label: "test"))
        let server = DashboardServer(
            listen: listen,
            access: DashboardAccess(
                admin: try token.map { try DashboardToken(text: $0) },
                control: try control.map { try DashboardToken(text: $0) }, secureCookie: secureCookie),
            hub: hub, bridge: bridge, mqttConnected: { true }, logger: Logger(label: "dashboard"))
        await bridge.start()
        await bridge.apply(.adapterAvailability(adapter: .zwave, online: true, reason: ""))
        let fixture = Fixture(
            bridge: bridge, mqtt: mqtt, zwave: zwave, requests: requests, hub: hub, server: server)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await bridge.runCommandQueue() }
            try await server.application().test(.live) { client in
                try await body(fixture, client)
            }
            await bridge.shutdown()
            try await group.waitForAll()
        }
    }

    func text(_ response: TestResponse) -> String { String(buffer: response.body) }

    /// A JSON string's text ("" for anything else).
    func string(_ value: JSONValue?) -> String {
        if case .string(let text)? = value { return text }
        return ""
    }

    // MARK: HTTP

    @Test func thePagesTheirAssetsAndTheInventoryAreServed() async throws {
        try await withServer { _, client in
            for page in ["/", "/network", "/events", "/node/2"] {
                let response = try await client.execute(uri: page, method: .get)
                #expect(response.status == .ok, "\(page)")
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(text(response).contains(#"<script type="module" src="/assets/app.js">"#))
            }
            let script = try await client.execute(uri: "/assets/app.js", method: .get)
            #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
            let etag = try #require(script.headers[.eTag])
            let again = try await client.execute(uri: "/assets/app.js", method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(try await client.execute(uri: "/assets/nothing.js", method: .get).status == .notFound)

            let devices = try await client.execute(uri: "/api/devices", method: .get)
            #expect(devices.headers[.contentType] == "application/json")
            let inventory = try JSONValue.parse(Array(text(devices).utf8))
            guard case .array(let entries) = inventory else {
                Issue.record("not an array: \(inventory)")
                return
            }
            #expect(entries.map { $0["topic"] } == ["Thuis/device/bedroom/light", "Thuis/device/living/ambilight"])
        }
    }

    @Test func healthNamesEachPartAndIs503WhenOneIsDown() async throws {
        try await withServer { fixture, client in
            var response = try await client.execute(uri: "/health", method: .get)
            #expect(response.status == .ok)
            var health = try JSONValue.parse(Array(text(response).utf8))
            #expect(health["status"] == "ok")
            #expect(health["parts"]?["mqtt"]?["ok"] == true)
            #expect(health["parts"]?["zwave"]?["ok"] == true)
            #expect(health["parts"]?["cec"] == nil, "no CEC adapter is configured")

            await fixture.bridge.apply(.adapterAvailability(adapter: .zwave, online: false, reason: "unplugged"))
            response = try await client.execute(uri: "/health", method: .get)
            #expect(response.status == .serviceUnavailable)
            health = try JSONValue.parse(Array(text(response).utf8))
            #expect(health["status"] == "degraded")
            #expect(health["parts"]?["zwave"] == .object([("ok", false), ("detail", "stick not ready")]))
        }
    }

    @Test func metricsDescribeTheBridgeWithStableDeviceIDs() async throws {
        try await withServer { fixture, client in
            await fixture.bridge.apply(.update(.zwave(node: 2, instance: nil), .level(40)))
            await fixture.bridge.apply(
                .update(.zwave(node: 2, instance: nil), .power(DeviceState.Measurement(value: 12.5, precision: 1))))
            // The dimmer turns out to have a temperature sensor, which reports.
            await fixture.bridge.apply(.sensorsFound(.zwave(node: 2, instance: nil), [.temperature: "°C"]))
            await fixture.bridge.apply(
                .update(
                    .zwave(node: 2, instance: nil),
                    .sensor(.temperature, .measurement(DeviceState.Measurement(value: 21.5, precision: 1)))))
            await fixture.bridge.receive(
                InboundMessage(topic: "Thuis/bridge/living/request/devices", payload: [], retained: false))
            await fixture.bridge.receive(
                InboundMessage(topic: "Thuis/bridge/living/request/nope", payload: [], retained: false))
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            let metrics = text(response)
            for line in [
                #"thuis_build_info{version="\#(BuildInfo.version)"} 1.0"#, "thuis_mqtt_connected 1.0",
                "thuis_zwave_ready 1.0",
                #"thuis_device_info{id="zwave_2",room="bedroom",name="light",kind="dimmer",adapter="zwave"} 1.0"#,
                #"thuis_device_info{id="zwave_3_4",room="living",name="ambilight",kind="socket",adapter="zwave"} 1.0"#,
                #"thuis_device_level{id="zwave_2"} 40.0"#, #"thuis_device_on{id="zwave_2"} 1.0"#,
                #"thuis_device_power_watts{id="zwave_2"} 12.5"#, #"thuis_device_available{id="zwave_2"} 1.0"#,
                #"thuis_device_sensor{id="zwave_2",room="bedroom",name="light",kind="temperature",unit="°C"} 21.5"#,
                #"thuis_requests_total{verb="devices",result="ok"} 1"#,
                #"thuis_requests_total{verb="unknown",result="error"} 1"#, "thuis_dashboard_clients 0.0",
                "# TYPE thuis_command_duration_seconds histogram",
                #"thuis_command_duration_seconds_count{adapter="zwave",result="ok"} 0"#,
            ] {
                #expect(metrics.contains(line), "no \(line) in:\n\(metrics)")
            }
            // Node statistics come from the Z-Wave handler's `network_stats` (here the fake's answer has no nodes).
            #expect(await fixture.requests.handled.contains(.networkStats))
        }
    }

    // MARK: Access

    @Test func withATokenEveryRequestNeedsIt() async throws {
        try await withServer(token: Self.secret) { _, client in
            for path in ["/", "/network", "/assets/app.js", "/assets/style.css", "/api/devices", "/health", "/metrics"]
            {
                let refused = try await client.execute(uri: path, method: .get)
                #expect(refused.status == .unauthorized, "\(path) without the token")
                #expect(refused.headers[.wwwAuthenticate] == #"Bearer realm="thuis-bridge""#)
                let wrong = try await client.execute(
                    uri: path, method: .get, headers: [.authorization: "Bearer \(Self.secret.dropLast())x"])
                #expect(wrong.status == .unauthorized, "\(path) with a wrong token")
                let right = try await client.execute(
                    uri: path, method: .get, headers: [.authorization: "Bearer \(Self.secret)"])
                #expect(right.status == .ok, "\(path) with the token")
            }
        }
    }

    @Test func theTokenInTheQuerySetsAStrictHttpOnlyCookieThenTheCookieIsEnough() async throws {
        try await withServer(token: Self.secret) { _, client in
            let first = try await client.execute(uri: "/network?token=\(Self.secret)", method: .get)
            #expect(first.status == .seeOther)
            #expect(first.headers[.location] == "/network")
            let cookie = try #require(first.headers[.setCookie])
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Strict"))
            let pair = String(cookie.prefix { $0 != ";" })
            #expect(pair == "thuis_token=\(Self.secret)")
            let next = try await client.execute(uri: "/network", method: .get, headers: [.cookie: pair])
            #expect(next.status == .ok)
            let wrong = try await client.execute(uri: "/?token=\(Self.secret.dropLast())x", method: .get)
            #expect(wrong.status == .unauthorized)
        }
    }

    @Test func theWebSocketUpgradeIsRefusedWithoutTheToken() async throws {
        try await withServer(token: Self.secret) { _, client in
            for headers: HTTPFields in [
                [:], [.authorization: "Bearer \(Self.secret.dropLast())x"], [.cookie: "thuis_token=nope"],
            ] {
                await #expect(throws: (any Error).self, "upgraded with \(headers)") {
                    try await client.ws("/ws", configuration: .init(additionalHeaders: headers)) { _, _, _ in
                        Issue.record("the socket opened with \(headers)")
                    }
                }
            }
            await #expect(throws: (any Error).self, "upgraded with a wrong token in the query") {
                try await client.ws("/ws?token=\(Self.secret.dropLast())x") { _, _, _ in Issue.record("opened") }
            }
            // Accepted with the header, the cookie (as a browser sends it) or the query.
            let accepted: [(String, HTTPFields)] = [
                ("/ws", [.authorization: "Bearer \(Self.secret)"]), ("/ws", [.cookie: "thuis_token=\(Self.secret)"]),
                ("/ws?token=\(Self.secret)", [:]),
            ]
            for (path, headers) in accepted {
                let opened = Flag()
                opened.value.withLock { $0 = false }
                try await client.ws(path, configuration: .init(additionalHeaders: headers)) { inbound, _, _ in
                    var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                    if case .text(let first)? = try await messages.next(), first.hasPrefix(#"{"type":"snapshot""#) {
                        opened.value.withLock { $0 = true }
                    }
                }
                #expect(opened.value.withLock { $0 }, "no snapshot through \(path) \(headers)")
            }
        }
    }

    // MARK: WebSocket

    @Test func theSocketSendsTheStateThenChangesAndTakesCommandsLikeMQTT() async throws {
        try await withServer { fixture, client in
            try await client.ws("/ws") { inbound, outbound, _ in
                var messages = Messages(inbound)
                let snapshot = try await messages.next()
                #expect(snapshot["type"] == "snapshot")
                #expect(snapshot["state"] == "online")
                #expect(snapshot["retained"]?["Thuis/device/bedroom/light/availability"] == "online")

                // A command goes through the bridge's parsing and queue to the hardware, as from MQTT.
                try await outbound.write(
                    .text(#"{"type":"set","topic":"Thuis/device/bedroom/light/set","payload":55}"#))
                await fixture.zwave.waitForCommands(1)
                #expect(await fixture.zwave.executed.map(\.1) == [.level(55)])

                // What the hardware reports comes back as the state MQTT gets.
                await fixture.bridge.apply(.update(.zwave(node: 2, instance: nil), .level(55)))
                let state = try await messages.next { $0["type"] == "state" }
                #expect(
                    state == .object([("type", "state"), ("topic", "Thuis/device/bedroom/light"), ("payload", "55")]))

                // A payload the bridge refuses gets the same event MQTT gets.
                try await outbound.write(
                    .text(#"{"type":"set","topic":"Thuis/device/bedroom/light/set","payload":"banana"}"#))
                let rejected = try await messages.next { $0["type"] == "event" }
                #expect(rejected["event"]?["type"] == "command_rejected")
                #expect(rejected["event"]?["topic"] == "Thuis/device/bedroom/light/set")
                #expect(await fixture.mqtt.events(on: "Thuis/bridge/living/event").last?["type"] == "command_rejected")

                // A request is answered with the response JSON MQTT gets, transaction included.
                try await outbound.write(
                    .text(#"{"type":"request","verb":"include","payload":{"transaction":"t-1","timeout_s":5}}"#))
                let response = try await messages.next { $0["type"] == "response" }
                #expect(response["verb"] == "include")
                #expect(response["response"]?["transaction"] == "t-1")
                #expect(response["response"]?["status"] == "ok")
                #expect(
                    await fixture.requests.handled.contains(
                        .include(timeoutSeconds: 5, secure: false, interviewTimeoutSeconds: 60)))
                // A mapped scene is published; an unmapped one is refused.
                try await outbound.write(.text(#"{"type":"scene","topic":"Thuis/scene/movie","payload":"on"}"#))
                let scene = try await messages.next { $0["type"] == "message" }
                #expect(scene["topic"] == "Thuis/scene/movie")
                try await outbound.write(.text(#"{"type":"scene","topic":"Thuis/scene/movie","payload":"off"}"#))
                let refused = try await messages.next { $0["type"] == "error" }
                #expect(string(refused["error"]).contains("no [[zwave.scene]]"))
            }
        }
    }

    @Test func badFramesGetAnErrorReplyAndTheSocketStaysUsable() async throws {
        try await withServer { fixture, client in
            try await client.ws("/ws") { inbound, outbound, _ in
                var messages = Messages(inbound)
                _ = try await messages.next()
                let cases: [(WebSocketOutboundWriter.OutboundFrame, String)] = [
                    (.text("{"), "malformed JSON"), (.text("[]"), "must be a JSON object"),
                    (.text(#"{"type":"reboot"}"#), "unknown type \"reboot\""),
                    (.text(#"{"type":"request","verb":"../x"}"#), "one topic level"),
                    (
                        .text(#"{"type":"set","topic":"Thuis/bridge/living/request/include","payload":"{}"}"#),
                        "device command topic"
                    ),
                    (.binary(ByteBuffer(bytes: [0x01, 0x02])), "binary messages are not understood"),
                    (.text(String(repeating: " ", count: 5_000) + "{}"), "message too large (5002 bytes"),
                ]
                for (frame, reason) in cases {
                    try await outbound.write(frame)
                    let reply = try await messages.next { $0["type"] == "error" }
                    #expect(string(reply["error"]).contains(reason), "\(reason): \(reply)")
                }
                // An unknown verb is the bridge's own answer, as on MQTT.
                try await outbound.write(.text(#"{"type":"request","verb":"reboot","payload":{"transaction":"9"}}"#))
                let unknown = try await messages.next { $0["type"] == "response" }
                #expect(unknown["response"]?["transaction"] == "9")
                #expect(unknown["response"]?["status"] == "error")
                let reason = string(unknown["response"]?["error"])
                #expect(reason.contains("unknown command"), "\(reason)")
                // Still usable: a command goes through.
                try await outbound.write(
                    .text(#"{"type":"set","topic":"Thuis/device/living/ambilight/set","payload":"on"}"#))
                await fixture.zwave.waitForCommands(1)
                #expect(await fixture.zwave.executed.map(\.1) == [.on])
                #expect(fixture.hub.clientCount == 1)
            }
            // A frame over 64 KiB closes that socket (1009), and nothing else: the server still answers.
            let close = try await client.ws("/ws") { inbound, outbound, _ in
                var messages = Messages(inbound)
                _ = try await messages.next()
                try await outbound.write(.text(String(repeating: "x", count: 70_000)))
                while (try? await messages.next()) != nil {}
            }
            #expect(close?.closeCode == .messageTooLarge)
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
        }
    }

    /// Reads JSON text messages from a socket.
    struct Messages {
        var iterator: WebSocketInboundMessageStream.AsyncIterator

        init(_ inbound: WebSocketInboundStream) { iterator = inbound.messages(maxSize: 1 << 20).makeAsyncIterator() }

        struct Closed: Error {}

        /// The next message that satisfies `matching`, skipping others.
        mutating func next(_ matching: (JSONValue) -> Bool = { _ in true }) async throws -> JSONValue {
            while let message = try await iterator.next() {
                guard case .text(let text) = message else { continue }
                let json = try JSONValue.parse(Array(text.utf8))
                if matching(json) { return json }
            }
            throw Closed()
        }
    }
}
