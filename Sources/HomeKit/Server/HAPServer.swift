internal import BridgeCore
internal import Glibc
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
        /// How long one connection may hold Pair Setup (every other one is `busy` meanwhile), counted from the
        /// M1 that took it: then the hold is released and the connection closed. One bound for the whole
        /// exchange, which bounds every gap between its messages too: a controller sends M1, M3 and M5 within
        /// moments of each other, and the only human wait, typing the code, comes before or right after M1; 60 s
        /// leaves room for that. Without it a host that sends M1 and waits keeps every other controller out.
        public var pairSetupLimit: Duration
        /// At most this many connections at once from one address (``maximumConnections`` in all). A home hub or
        /// an iPhone keeps one or two: 8, the number the HAP specification asks an accessory to accept in all,
        /// leaves room for several apps on one device while one host cannot take every place.
        public var connectionsPerAddress: Int
        /// At most this many responses and events wait for one connection's writer (each at most one request's
        /// answer or one event, a few KiB). A controller that stops reading while the socket's buffers are
        /// full is disconnected (logged, counted in ``HAPServer/droppedSlowConnections``) instead of its
        /// queue growing: 256 is far more than a live controller ever has in flight.
        public var outgoingLimit: Int

        public init(
            name: String, port: Int = 0, host: String = "0.0.0.0", setupCode: SetupCode,
            category: UInt8 = SetupPayload.bridgeCategory,
            backoff: @escaping @Sendable (Int) -> Duration = Configuration.defaultBackoff,
            unverifiedLimit: Duration = .seconds(30), pairSetupLimit: Duration = .seconds(60),
            connectionsPerAddress: Int = 8, outgoingLimit: Int = 256
        ) {
            self.name = name
            self.port = port
            self.host = host
            self.setupCode = setupCode
            self.category = category
            self.backoff = backoff
            self.unverifiedLimit = unverifiedLimit
            self.pairSetupLimit = pairSetupLimit
            self.connectionsPerAddress = connectionsPerAddress
            self.outgoingLimit = outgoingLimit
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

    /// A connection's queue to its writer, bounded by `outgoingLimit`: an item that does not fit closes the
    /// connection's channel (its controller does not read) instead of being kept.
    struct Outbox: Sendable {
        let continuation: AsyncStream<Outgoing>.Continuation
        let channel: any Channel

        /// Queues `item`; false, and the channel closed, when the queue is full.
        @discardableResult
        func yield(_ item: Outgoing) -> Bool {
            guard case .dropped = continuation.yield(item) else { return true }
            channel.close(promise: nil)
            return false
        }

        func finish() { continuation.finish() }
    }

    /// What the server knows of one connection.
    struct Connection {
        let output: Outbox
        /// The peer's IP address (``Configuration/connectionsPerAddress``).
        let address: String
        var setup: PairSetup
        var verify: PairVerify
        /// The controller of the encrypted session, after Pair Verify.
        var controller: Pairing?
        var subscriptions: Set<CharacteristicID> = []
        /// Values this connection wrote: the change they cause is not sent back to it as an event.
        var echoes: [CharacteristicID: JSONValue] = [:]
        /// Closes the connection at `unverifiedLimit` unless it is verified or pairing by then.
        var limit: Task<Void, Never>?
        /// Its queue overflowed: the channel is closing, no more events are queued.
        var overflowed = false
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
    /// Releases `pairSetupOwner` at `pairSetupLimit`.
    var pairSetupRelease: Task<Void, Never>?
    /// Connections closed because their queue overflowed (``Configuration/outgoingLimit``).
    public internal(set) var droppedSlowConnections = 0
    /// Pair Setup is refused with `backoff` until then.
    var backoffUntil: ContinuousClock.Instant?
    var advertise: @Sendable ([(String, String)]) -> Void = { _ in }

    public init(configuration: Configuration, store: HomeKitStore, model: any AccessoryModel, logger: Logger) {
        self.configuration = configuration
        self.store = store
        self.model = model
        self.logger = logger
        backoffUntil = Self.restoredBackoff(store: store, backoff: configuration.backoff)
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
            .childChannelOption(ChannelOptions.socketOption(.so_keepalive), value: 1)
            .childChannelOption(Self.keepaliveOption(TCP_KEEPIDLE), value: Self.keepalive.idle)
            .childChannelOption(Self.keepaliveOption(TCP_KEEPINTVL), value: Self.keepalive.interval)
            .childChannelOption(Self.keepaliveOption(TCP_KEEPCNT), value: Self.keepalive.count)
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
        let channel = connection.channel
        let (stream, continuation) = AsyncStream<Outgoing>.makeStream(
            bufferingPolicy: .bufferingOldest(configuration.outgoingLimit))
        let output = Outbox(continuation: continuation, channel: channel)
        let address = channel.remoteAddress?.ipAddress ?? "?"
        guard let id = await open(output, address: address) else {
            try? await connection.executeThenClose { _, _ in }
            return
        }
        if logger.logLevel <= .debug { await logOpened(id, channel: channel, address: address) }
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

    /// Requests in order. A request that switches the session to encryption or closes it must be the last
    /// bytes received in clear: bytes already buffered behind it (sent in clear before the switch, the STARTTLS
    /// injection of CVE-2011-0411) are a protocol error, and the connection closes without running them.
    private nonisolated func read(
        _ inbound: NIOAsyncChannelInboundStream<ByteBuffer>, connection id: Int, output: Outbox
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
                if reply.encrypt != nil || reply.close, parser.bufferedCount > 0 {
                    logger.warning(
                        "HomeKit: connection \(id) sent \(parser.bufferedCount) bytes behind a request that changes its session: closed"
                    )
                    return
                }
                guard output.yield(.bytes(reply.response.encoded())) else {
                    logger.warning("HomeKit: connection \(id) does not read its responses: closed")
                    return
                }
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

    /// TCP keepalive on every accepted socket, so that a verified session whose controller vanished (a device
    /// that lost power or the network, leaving the connection half open) is closed: after 5 minutes without a
    /// segment the kernel probes every 60 s and closes the socket after 5 unanswered probes (10 minutes in
    /// all). A live controller never reaches it: iOS and a home hub keep their HAP connection open and idle for
    /// hours, and their TCP stack answers the probes even while the app sleeps.
    static let keepalive: (idle: Int, interval: Int, count: Int) = (300, 60, 5)

    static func keepaliveOption(_ name: CInt) -> ChannelOptions.Types.SocketOption {
        ChannelOptions.Types.SocketOption(level: .tcp, name: NIOBSDSocket.Option(rawValue: name))
    }

    /// Logs the connection's peer and the keepalive settings the kernel reports for its socket.
    private nonisolated func logOpened(_ id: Int, channel: any Channel, address: String) async {
        func option(_ option: ChannelOptions.Types.SocketOption) async -> String {
            (try? await channel.getOption(option).get()).map { "\($0)" } ?? "?"
        }
        let enabled = await option(ChannelOptions.socketOption(.so_keepalive))
        let idle = await option(Self.keepaliveOption(TCP_KEEPIDLE))
        let interval = await option(Self.keepaliveOption(TCP_KEEPINTVL))
        let count = await option(Self.keepaliveOption(TCP_KEEPCNT))
        logger.debug(
            "HomeKit: connection \(id) from \(address), keepalive \(enabled) idle \(idle) s interval \(interval) s count \(count)"
        )
    }

    /// A new connection's id; nil (logged) when ``maximumConnections`` are open, or
    /// ``Configuration/connectionsPerAddress`` from `address`.
    private func open(_ output: Outbox, address: String) -> Int? {
        guard connections.count < Self.maximumConnections else {
            logger.warning(
                "HomeKit: \(Self.maximumConnections) connections are open: a new one is closed at once",
                metadata: ["from": "\(address)"])
            return nil
        }
        let fromAddress = connections.values.count { $0.address == address }
        guard fromAddress < configuration.connectionsPerAddress else {
            logger.warning(
                "HomeKit: \(fromAddress) connections are open from \(address): a new one is closed at once")
            return nil
        }
        nextConnectionID += 1
        let id = nextConnectionID
        let identity = store.identity
        connections[id] = Connection(
            output: output, address: address,
            setup: PairSetup(identity: identity, setupCode: configuration.setupCode),
            verify: PairVerify(identity: identity), limit: unverifiedTimer(id))
        return id
    }

    /// Calls ``reachedLimit(_:)`` for connection `id` after `unverifiedLimit`.
    private func unverifiedTimer(_ id: Int) -> Task<Void, Never> {
        let limit = configuration.unverifiedLimit
        return Task { [weak self] in
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            await self?.reachedLimit(id)
        }
    }

    private func closed(_ id: Int) {
        connections[id]?.limit?.cancel()
        connections[id] = nil
        if pairSetupOwner == id { pairSetupOwner = nil }
    }

    /// `unverifiedLimit` after connection `id` opened: closed unless verified or pairing. The one pairing is
    /// looked at again one `unverifiedLimit` later (its hold ends at `pairSetupLimit`): once its Pair Setup ended
    /// without a verified session, it is closed like any other.
    private func reachedLimit(_ id: Int) {
        guard let connection = connections[id], connection.controller == nil else { return }
        guard pairSetupOwner != id else {
            logger.debug(
                "HomeKit: connection \(id) is pairing: its limit is looked at again in \(configuration.unverifiedLimit)"
            )
            connections[id]?.limit = unverifiedTimer(id)
            return
        }
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
