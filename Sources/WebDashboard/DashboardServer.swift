public import BridgeCore
internal import HTTPTypes
public import Hummingbird
internal import HummingbirdCore
internal import HummingbirdWebSocket
public import Logging
internal import NIOCore

/// The dashboard's web server: the pages, their assets, `/api/devices`, `/health`, `/metrics` and the WebSocket
/// `/ws`, every request checked by ``DashboardAccess``. A front end over the core: every command and request goes
/// through the bridge's own parsing and validation (`Bridge.receive`), as if it came from MQTT.
public struct DashboardServer: Sendable {
    public let listen: WebListenAddress
    let access: DashboardAccess
    let hub: DashboardHub
    let bridge: Bridge
    let requests: DashboardRequests
    let mqttConnected: @Sendable () async -> Bool
    let logger: Logger
    /// The upgraded WebSocket connections' contexts still in memory (``DashboardRequestContext``).
    let webSocketContexts = LiveWebSocketContexts()

    /// The paths that serve the page (its scripts draw the part the path names).
    static let pages = ["/", "/network", "/network/map", "/events", "/node/{node}"]

    public init(
        listen: WebListenAddress, access: DashboardAccess, hub: DashboardHub, bridge: Bridge,
        mqttConnected: @escaping @Sendable () async -> Bool, logger: Logger
    ) {
        self.listen = listen
        self.access = access
        self.hub = hub
        self.bridge = bridge
        self.requests = DashboardRequests(bridge: bridge)
        self.mqttConnected = mqttConnected
        self.logger = logger
    }

    /// Sizes SwiftNIO's process-wide thread pools for a dashboard (a handful of clients): one event loop thread and
    /// one blocking-pool thread instead of one per core. Call once, before the first server starts.
    public static func useSmallThreadPools() {
        NIOSingletons.groupLoopCountSuggestion = 1
        NIOSingletons.blockingPoolThreadCountSuggestion = 1
    }

    /// The Hummingbird application (a `Service`): `onListening` gets the base URL once the port is bound.
    public func application(onListening: @escaping @Sendable (String) -> Void = { _ in }) -> some ApplicationProtocol {
        let router = Router(context: DashboardRequestContext.self)
        router.add(middleware: AccessMiddleware(access: access, upgrade: false))
        for page in Self.pages {
            router.get(RouterPath(page)) { _, _ in Self.asset(DashboardAssets.page, ifNoneMatch: nil) }
        }
        router.get("/assets/{file}") { request, context in
            Self.asset(context.parameters.get("file") ?? "", ifNoneMatch: request.headers[.ifNoneMatch])
        }
        router.get("/api/devices") { _, _ in await self.devices() }
        router.get("/health") { _, _ in await self.health() }
        router.get("/metrics") { _, _ in await self.metrics() }
        router.get("/ws") { _, _ in
            Self.text(.upgradeRequired, "the dashboard's WebSocket: connect with a WebSocket client\n")
        }

        let sockets = Router(context: DashboardRequestContext.self)
        sockets.add(middleware: AccessMiddleware(access: access, upgrade: true))
        let connection = DashboardConnection(hub: hub, bridge: bridge, requests: requests, logger: logger)
        let access = self.access
        let contexts = webSocketContexts
        sockets.ws("/ws") { inbound, outbound, context in
            // The upgrade has taken the handler: the slot lets go of it and of the context copy it holds.
            contexts.track(context.requestContext.slot)
            context.requestContext.slot.empty()
            // The middleware let the upgrade through; its decision again gives the role.
            guard case .allowed(let role) = access.decide(.init(context.request, upgrade: true)) else { return }
            try await connection.serve(inbound: inbound, outbound: outbound, role: role)
        }
        let listen = self.listen
        let logger = self.logger
        return Application(
            router: router,
            server: Self.server(sockets: sockets, access: access),
            configuration: ApplicationConfiguration(address: .hostname(listen.host, port: listen.port)),
            services: [requests],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? listen.port
                let url = "http://\(listen.urlHost):\(port)/"
                logger.info("dashboard listening", metadata: ["url": "\(url)"])
                onListening(url)
            },
            logger: logger)
    }

    /// HTTP/1 with the WebSocket upgrade through `sockets`, a refused upgrade answered like any refused request
    /// (``DashboardChannel``).
    static func server(sockets: Router<DashboardRequestContext>, access: DashboardAccess) -> HTTPServerBuilder {
        let responder = sockets.buildResponder()
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(idleTimeout: .seconds(120)),
            ws: .init(
                maxFrameSize: maximumFrameSize, autoPing: .enabled(timePeriod: .seconds(30)), closeTimeout: .seconds(2))
        )
        return HTTPServerBuilder { http in
            DashboardChannel(
                upgrade: HTTP1WebSocketUpgradeChannel(
                    responder: http, webSocketResponder: responder, configuration: configuration),
                access: access)
        }
    }

    /// The largest WebSocket frame read: bigger frames close the socket (1009); messages up to this size but over
    /// ``DashboardProtocol/maximumMessageLength`` get an error reply. As on MQTT (64 KiB packets, 4 KiB payloads).
    static let maximumFrameSize = 64 * 1024

    // MARK: Endpoints

    func devices() async -> Response {
        switch await bridge.request(.devices) {
        case .success(let inventory): Self.json(.ok, inventory.serialized)
        case .failure(let failure): Self.json(.internalServerError, DashboardProtocol.error(failure.reason))
        }
    }

    /// `{"status": "ok"|"degraded", "parts": {"mqtt": {"ok": true}, "zwave": {...}, "cec": {...}}}`: 503 when any
    /// configured part is down. Served beyond loopback, only `{"status": "ok"|"degraded"}`: the rest is not for the
    /// network.
    func health() async -> Response {
        let mqtt = await mqttConnected()
        let adapters = await bridge.adapters
        var parts: [(String, JSONValue)] = [("mqtt", Self.part(mqtt, mqtt ? "connected" : "not connected"))]
        for adapter in Adapter.allCases {
            guard let online = adapters[adapter] else { continue }
            let detail =
                switch adapter {
                case .zwave: online ? "stick ready" : "stick not ready"
                case .cec: online ? "adapter connected" : "adapter not connected"
                }
            parts.append((adapter.rawValue, Self.part(online, detail)))
        }
        let healthy = mqtt && adapters.values.allSatisfy { $0 }
        let status = healthy ? HTTPResponse.Status.ok : .serviceUnavailable
        guard listen.isLoopback else {
            return Self.json(status, JSONValue.object([("status", .string(healthy ? "ok" : "degraded"))]).serialized)
        }
        let body = JSONValue.object([
            ("status", .string(healthy ? "ok" : "degraded")), ("version", .string(BuildInfo.version)),
            ("parts", .object(parts)),
        ])
        return Self.json(status, body.serialized)
    }

    static func part(_ ok: Bool, _ detail: String) -> JSONValue {
        .object([("ok", .bool(ok)), ("detail", .string(detail))])
    }

    func metrics() async -> Response {
        var statistics: JSONValue?
        let adapters = await bridge.adapters
        if adapters[.zwave] == true, case .success(let data) = await bridge.request(.networkStats) {
            statistics = data
        }
        hub.metrics.refresh(
            .init(
                mqttConnected: await mqttConnected(), adapters: adapters, retained: hub.retained.topics,
                networkStatistics: statistics))
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return Response(
            status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: hub.metrics.exposition())))
    }

    // MARK: Responses

    static func asset(_ name: String, ifNoneMatch: String?) -> Response {
        guard let asset = DashboardAssets.files[name] else { return text(.notFound, "no such asset\n") }
        var headers = HTTPFields()
        headers[.eTag] = asset.etag
        headers[.cacheControl] = "no-cache"
        headers[.xContentTypeOptions] = "nosniff"
        if ifNoneMatch == asset.etag { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = asset.contentType
        if name == DashboardAssets.page {
            headers[.contentSecurityPolicy] =
                "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'"
            headers.setNoReferrer()
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: asset.text)))
    }

    static func json(_ status: HTTPResponse.Status, _ text: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func text(_ status: HTTPResponse.Status, _ text: String, headers extra: HTTPFields = [:]) -> Response {
        var headers = extra
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

extension HTTPFields {
    /// `Referrer-Policy: no-referrer` (not among swift-http-types' names): the page's URL may hold `?token=`.
    mutating func setNoReferrer() {
        if let name = HTTPField.Name("Referrer-Policy") { self[name] = "no-referrer" }
    }
}

/// Checks every request with ``DashboardAccess``: 401 or 403 with the reason, the `?token=` redirect that sets the
/// cookie, or the route.
struct AccessMiddleware<Context: RequestContext>: RouterMiddleware {
    let access: DashboardAccess
    let upgrade: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        switch access.decide(DashboardAccess.Request(request, upgrade: upgrade)) {
        case .allowed:
            return try await next(request, context)
        case .redirect(let location, let cookie):
            var headers = HTTPFields()
            headers[.location] = location
            headers[.setCookie] = cookie
            headers[.cacheControl] = "no-store"
            headers.setNoReferrer()
            return Response(status: .seeOther, headers: headers)
        case .unauthorized(let reason):
            var headers = HTTPFields()
            headers[.wwwAuthenticate] = "Bearer realm=\"thuis-bridge\""
            return DashboardServer.text(.unauthorized, "401 unauthorized: \(reason)\n", headers: headers)
        case .forbidden(let reason):
            return DashboardServer.text(.forbidden, "403 forbidden: \(reason)\n")
        }
    }
}

extension DashboardAccess.Request {
    /// The parts of a Hummingbird request the decision needs.
    init(_ request: Request, upgrade: Bool) {
        self.init(
            path: request.uri.path, query: request.uri.query, authorization: request.headers[.authorization],
            cookies: request.headers[values: .cookie], host: request.head.authority, origin: request.headers[.origin],
            upgrade: upgrade)
    }
}
