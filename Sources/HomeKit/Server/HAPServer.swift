internal import BridgeCore
public import Logging
internal import NIOCore
internal import NIOPosix

/// The HomeKit Accessory Protocol server: HTTP/1.1 over TCP, Pair Setup and Pair Verify in clear, then every
/// request and the `EVENT/1.0` notifications in the encrypted session of the connection. It serves `model`'s
/// accessories and keeps its pairings in `store`; it runs until its task is cancelled, then closes every
/// connection.
public actor HAPServer {
    public struct Configuration: Sendable {
        /// The name controllers show (and the `md` TXT record).
        public var name: String
        /// The TCP port; 0 lets the system choose one (``run(onListening:advertise:)`` reports it).
        public var port: Int
        /// The address to listen on.
        public var host: String
        public var setupCode: SetupCode
        /// The accessory category, `ci`: 2 is a bridge.
        public var category: UInt8
        /// How long Pair Setup is refused (`backoff`) after the n-th failed attempt. The specification asks for
        /// a back-off without fixing its length: by default none after the first two failures, then 1 s
        /// doubling up to 60 s.
        public var backoff: @Sendable (Int) -> Duration
        /// How long a connection may stay open without a verified session: one that has not completed Pair
        /// Verify by then, and is not the one whose Pair Setup is in progress (its user may still be typing the
        /// code), is closed. A controller verifies within moments of connecting; without the limit a host on the
        /// network could hold every place (``maximumConnections``) by connecting and waiting.
        public var unverifiedLimit: Duration

        public init(
            name: String, port: Int = 0, host: String = "0.0.0.0", setupCode: SetupCode,
            category: UInt8 = SetupPayload.bridgeCategory,
            backoff: @escaping @Sendable (Int) -> Duration = Configuration.defaultBackoff,
            unverifiedLimit: Duration = .seconds(30)
        ) {
            self.name = name
            self.port = port
            self.host = host
            self.setupCode = setupCode
            self.category = category
            self.backoff = backoff
            self.unverifiedLimit = unverifiedLimit
        }

        public static let defaultBackoff: @Sendable (Int) -> Duration = { failures in
            failures <= 2 ? .zero : .seconds(min(1 << min(failures - 3, 6), 60))
        }
    }

    /// What a connection's writer does next, in order: bytes go out sealed once the session is encrypted.
    enum Outgoing: Sendable {
        case bytes([UInt8])
        case encrypt(SessionKeys)
        case close
    }

    /// What the server knows of one connection.
    struct Connection {
        let output: AsyncStream<Outgoing>.Continuation
        var setup: PairSetup
        var verify: PairVerify
        /// The controller of the encrypted session, after Pair Verify.
        var controller: Pairing?
        var subscriptions: Set<CharacteristicID> = []
        /// Values this connection wrote: the change they cause is not sent back to it as an event.
        var echoes: [CharacteristicID: JSONValue] = [:]
        /// Closes the connection at `unverifiedLimit` unless it is verified or pairing by then.
        var limit: Task<Void, Never>?
    }

    /// The answer to one request, and what happens to the connection after it went out.
    struct Reply: Sendable {
        var response: HTTPResponse
        /// Pair Verify succeeded: both directions are encrypted from the next message on.
        var encrypt: SessionKeys? = nil
        /// The connection closes after the response (its controller was removed).
        var close = false
    }

    let configuration: Configuration
    let store: HomeKitStore
    let model: any AccessoryModel
    let logger: Logger
    var connections: [Int: Connection] = [:]
    private var nextConnectionID = 0
    /// The connection whose Pair Setup is in progress: others are `busy` meanwhile.
    var pairSetupOwner: Int?
    /// Pair Setup is refused with `backoff` until then.
    var backoffUntil: ContinuousClock.Instant?
    var advertise: @Sendable ([(String, String)]) -> Void = { _ in }

    public init(configuration: Configuration, store: HomeKitStore, model: any AccessoryModel, logger: Logger) {
        self.configuration = configuration
        self.store = store
        self.model = model
        self.logger = logger
    }

    /// Listens, reports the port to `onListening` and the TXT records to `advertise` (again whenever they change:
    /// paired or not, the configuration number), and serves until the task is cancelled.
    public func run(
        onListening: @Sendable (Int) -> Void, advertise: @escaping @Sendable ([(String, String)]) -> Void
    ) async throws {
        self.advertise = advertise
        await structureChanged()
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .bind(host: configuration.host, port: configuration.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let port = server.channel.localAddress?.port ?? configuration.port
        logger.info("HomeKit: serving HAP on port \(port)", metadata: ["id": "\(store.deviceID)"])
        onListening(port)
        try await server.executeThenClose { inbound in
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await self.forwardChanges() }
                for try await connection in inbound {
                    group.addTask { await self.serve(connection) }
                }
                group.cancelAll()
            }
        }
    }

    /// One connection: requests are read, decrypted once the session is, and answered in order; a writer task
    /// sends the responses and events.
    private nonisolated func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        let (stream, output) = AsyncStream<Outgoing>.makeStream()
        guard let id = await open(output) else {
            logger.warning(
                "HomeKit: \(Self.maximumConnections) connections are open: a new one is closed at once",
                metadata: ["from": "\(connection.channel.remoteAddress.map { "\($0)" } ?? "?")"])
            try? await connection.executeThenClose { _, _ in }
            return
        }
        let channel = connection.channel
        do {
            try await connection.executeThenClose { inbound, outbound in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await Self.write(stream, to: outbound, channel: channel) }
                    try await read(inbound, connection: id, output: output)
                    output.finish()
                    try await group.waitForAll()
                }
            }
        } catch {
            logger.debug("HomeKit: connection \(id) ended: \(error)")
        }
        await closed(id)
    }

    private nonisolated func read(
        _ inbound: NIOAsyncChannelInboundStream<ByteBuffer>, connection id: Int,
        output: AsyncStream<Outgoing>.Continuation
    ) async throws {
        var parser = HTTPRequestParser()
        var session: SecureSession?
        for try await buffer in inbound {
            var bytes = Array(buffer.readableBytesView)
            if var reader = session {
                do {
                    bytes = try reader.open(bytes)
                } catch {
                    logger.warning("HomeKit: connection \(id) sent a frame that does not authenticate: closed")
                    return
                }
                session = reader
            }
            parser.append(bytes)
            while true {
                let request: HTTPRequest?
                do {
                    request = try parser.next()
                } catch {
                    let response = Self.response(to: error)
                    logger.warning("HomeKit: connection \(id) sent a bad request (\(response.status)): closed")
                    output.yield(.bytes(response.encoded()))
                    return
                }
                guard let request else { break }
                let reply = await handle(request, connection: id)
                output.yield(.bytes(reply.response.encoded()))
                if let keys = reply.encrypt {
                    output.yield(.encrypt(keys))
                    session = SecureSession(keys: keys)
                }
                if reply.close { return }
            }
        }
    }

    private static func write(
        _ stream: AsyncStream<Outgoing>, to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, channel: any Channel
    ) async throws {
        var session: SecureSession?
        for await item in stream {
            switch item {
            case .bytes(let plain):
                var bytes = plain
                if var sealer = session {
                    bytes = try sealer.seal(plain)
                    session = sealer
                }
                try await outbound.write(ByteBuffer(bytes: bytes))
            case .encrypt(let keys):
                session = SecureSession(keys: keys)
            case .close:
                channel.close(promise: nil)
                return
            }
        }
    }

    private static func response(to failure: HTTPRequestParser.Failure) -> HTTPResponse {
        switch failure {
        case .badRequest: HTTPResponse(status: 400)
        case .bodyTooLarge: HTTPResponse(status: 413)
        }
    }

    /// At most this many connections at once (the HAP specification asks for at least 8): a host on the network
    /// cannot make the bridge hold sockets and session state without bound.
    static let maximumConnections = 32

    private func open(_ output: AsyncStream<Outgoing>.Continuation) -> Int? {
        guard connections.count < Self.maximumConnections else { return nil }
        nextConnectionID += 1
        let id = nextConnectionID
        let identity = store.identity
        let limit = configuration.unverifiedLimit
        connections[id] = Connection(
            output: output, setup: PairSetup(identity: identity, setupCode: configuration.setupCode),
            verify: PairVerify(identity: identity),
            limit: Task { [weak self] in
                guard (try? await Task.sleep(for: limit)) != nil else { return }
                await self?.reachedLimit(id)
            })
        return id
    }

    private func closed(_ id: Int) {
        connections[id]?.limit?.cancel()
        connections[id] = nil
        if pairSetupOwner == id { pairSetupOwner = nil }
    }

    /// `unverifiedLimit` after connection `id` opened: closed unless verified or pairing.
    private func reachedLimit(_ id: Int) {
        guard let connection = connections[id], connection.controller == nil, pairSetupOwner != id else { return }
        logger.info(
            "HomeKit: connection \(id) neither verified nor pairing after \(configuration.unverifiedLimit): closed")
        connection.output.yield(.close)
    }

    /// Routes one request: pairing in clear, the rest only in an encrypted session (470 otherwise).
    func handle(_ request: HTTPRequest, connection id: Int) async -> Reply {
        switch (request.method, request.path) {
        case ("POST", "/pair-setup"): return pairSetup(request, connection: id)
        case ("POST", "/pair-verify"): return pairVerify(request, connection: id)
        case ("POST", "/identify"): return identify()
        default: break
        }
        guard let controller = connections[id]?.controller else {
            return Reply(
                response: Self.json(470, .object([("status", .int(HAPStatus.insufficientAuthorization.rawValue))])))
        }
        switch (request.method, request.path) {
        case ("POST", "/pairings"): return pairings(request, connection: id, controller: controller)
        case ("GET", "/accessories"): return Reply(response: Self.json(200, await model.database()))
        case ("GET", "/characteristics"): return await readCharacteristics(request, connection: id)
        case ("PUT", "/characteristics"): return await writeCharacteristics(request, connection: id)
        case (_, "/accessories"), (_, "/characteristics"), (_, "/pairings"):
            return Reply(response: HTTPResponse(status: 405))
        default: return Reply(response: HTTPResponse(status: 404))
        }
    }

    /// Identify, for an unpaired accessory only (HAP specification): a paired one answers 400 with
    /// insufficient privileges.
    private func identify() -> Reply {
        guard !store.isPaired else {
            return Reply(
                response: Self.json(400, .object([("status", .int(HAPStatus.insufficientPrivileges.rawValue))])))
        }
        logger.notice("HomeKit: a controller asked the bridge to identify itself")
        return Reply(response: HTTPResponse(status: 204))
    }

    static func json(_ status: Int, _ body: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, contentType: HTTPResponse.json, body: Array(body.serialized.utf8))
    }

    static func tlv(_ body: TLV8, status: Int = 200) -> Reply {
        Reply(response: HTTPResponse(status: status, contentType: HTTPResponse.tlv8, body: body.encoded))
    }
}
