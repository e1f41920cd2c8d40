public import Crypto
public import HomeKit
import NIOCore
import NIOPosix

/// A HAP controller written from the specification, over a real TCP connection: HTTP/1.1 requests, Pair Setup
/// and Pair Verify, then the encrypted session (its own framing, not the server's ``SecureSession``). The
/// controller of the HomeKit tests and of thuis-bench; one connection, used by one task at a time.
public final class HAPClient {
    public struct Response: Sendable {
        /// `HTTP/1.1` or `EVENT/1.0`.
        public let version: String
        public let status: Int
        public let headers: [String: String]
        public let body: [UInt8]

        public var tlv: TLV8? { try? TLV8(decoding: body) }
        public var text: String { String(decoding: body, as: UTF8.self) }
        public var isEvent: Bool { version == "EVENT/1.0" }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    private var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private var received: [UInt8] = []
    private var plain: [UInt8] = []
    private var keys: (write: SymmetricKey, read: SymmetricKey)?
    private var writeCounter: UInt64 = 0
    private var readCounter: UInt64 = 0
    public private(set) var isClosed = false
    /// Events that arrived while ``response(_:_:body:contentType:)`` waited for its response, oldest first.
    private var pendingEvents: [Response] = []

    private init(
        inbound: NIOAsyncChannelInboundStream<ByteBuffer>, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) {
        self.inbound = inbound.makeAsyncIterator()
        self.outbound = outbound
    }

    /// Connects to `host`:`port` and runs `body`; the connection is closed after it.
    public static func connect<T>(
        host: String = "127.0.0.1", port: Int, _ body: (HAPClient) async throws -> T
    ) async throws -> T {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await body(HAPClient(inbound: inbound, outbound: outbound))
        }
    }

    /// Sends raw bytes, sealed in frames once the session is encrypted.
    public func send(_ bytes: [UInt8]) async throws {
        guard let keys else { return try await outbound.write(ByteBuffer(bytes: bytes)) }
        var wire: [UInt8] = []
        for start in stride(from: 0, to: bytes.count, by: 1024) {
            let chunk = bytes[start..<min(start + 1024, bytes.count)]
            let length = [UInt8(chunk.count & 0xFF), UInt8(chunk.count >> 8)]
            let box = try ChaChaPoly.seal(
                chunk, using: keys.write, nonce: try frameNonce(writeCounter), authenticating: length)
            writeCounter += 1
            wire += length + Array(box.ciphertext) + Array(box.tag)
        }
        try await outbound.write(ByteBuffer(bytes: wire))
    }

    /// Writes `bytes` as they are, even in an encrypted session (a forged frame).
    public func sendRaw(_ bytes: [UInt8]) async throws { try await outbound.write(ByteBuffer(bytes: bytes)) }

    /// The next frame this client would send for `bytes`, without sending it.
    public func sealNext(_ bytes: [UInt8]) throws -> [UInt8] {
        guard let keys else { throw Failure("not encrypted") }
        let length = [UInt8(bytes.count & 0xFF), UInt8(bytes.count >> 8)]
        let box = try ChaChaPoly.seal(
            bytes, using: keys.write, nonce: try frameNonce(writeCounter), authenticating: length)
        return length + Array(box.ciphertext) + Array(box.tag)
    }

    /// The bytes of a request, as ``request(_:_:body:contentType:)`` sends them (before any encryption).
    public static func encode(
        _ method: String, _ target: String, body: [UInt8] = [], contentType: String = "application/hap+json"
    ) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: bridge\r\n"
        if !body.isEmpty || method != "GET" {
            head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
        }
        return Array((head + "\r\n").utf8) + body
    }

    public func request(
        _ method: String, _ target: String, body: [UInt8] = [], contentType: String = "application/hap+json"
    ) async throws -> Response {
        try await send(Self.encode(method, target, body: body, contentType: contentType))
        guard let response = try await receive() else { throw Failure("the server closed the connection") }
        return response
    }

    /// Like ``request(_:_:body:contentType:)``, but events that come before the response are kept for
    /// ``nextEvent()`` instead of taken for it.
    public func response(
        _ method: String, _ target: String, body: [UInt8] = [], contentType: String = "application/hap+json"
    ) async throws -> Response {
        var response = try await request(method, target, body: body, contentType: contentType)
        while response.isEvent {
            pendingEvents.append(response)
            guard let next = try await receive() else { throw Failure("the server closed the connection") }
            response = next
        }
        return response
    }

    /// The next `EVENT/1.0`, kept or received (a response in between is an error); nil when the server closed the
    /// connection.
    public func nextEvent() async throws -> Response? {
        if !pendingEvents.isEmpty { return pendingEvents.removeFirst() }
        guard let message = try await receive() else { return nil }
        guard message.isEvent else { throw Failure("got a \(message.status) response instead of an event") }
        return message
    }

    public func post(_ path: String, _ tlv: TLV8) async throws -> Response {
        try await request("POST", path, body: tlv.encoded, contentType: "application/pairing+tlv8")
    }

    /// The next response or event; nil when the server closed the connection.
    public func receive() async throws -> Response? {
        while true {
            if let response = try parse() { return response }
            guard let buffer = try await inbound.next() else {
                isClosed = true
                return nil
            }
            received += Array(buffer.readableBytesView)
            try decrypt()
        }
    }

    /// Whether the server closes the connection (reading until it does; a response in between is an error).
    public func closes() async throws -> Bool {
        if let response = try await receive() { throw Failure("got \(response.status) instead of the close") }
        return isClosed
    }

    private func decrypt() throws {
        guard let keys else {
            plain += received
            received = []
            return
        }
        while received.count >= 2 {
            let length = Int(received[0]) | Int(received[1]) << 8
            guard received.count >= 2 + length + 16 else { return }
            let box = try ChaChaPoly.SealedBox(
                nonce: try frameNonce(readCounter), ciphertext: received[2..<2 + length],
                tag: received[2 + length..<2 + length + 16])
            plain += try ChaChaPoly.open(box, using: keys.read, authenticating: received[0..<2])
            readCounter += 1
            received.removeFirst(2 + length + 16)
        }
    }

    private func parse() throws -> Response? {
        guard let end = plain.indices.dropLast(3).first(where: { plain[$0...$0 + 3] == [13, 10, 13, 10] }) else {
            return nil
        }
        let lines = String(decoding: plain[0..<end], as: UTF8.self).split(separator: "\r\n")
        let status = lines.first?.split(separator: " ") ?? []
        guard status.count >= 2, let code = Int(status[1]) else {
            throw Failure("bad status line \(lines.first ?? "")")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { headers[parts[0].lowercased()] = String(parts[1].drop { $0 == " " }) }
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        guard plain.count >= end + 4 + length else { return nil }
        let body = Array(plain[end + 4..<end + 4 + length])
        plain.removeFirst(end + 4 + length)
        return Response(version: String(status[0]), status: code, headers: headers, body: body)
    }

    // MARK: Pairing

    /// Pair Setup M1 to M6 with `code`; returns the last response's TLV (M4 with its error when the code is
    /// wrong, M6 otherwise).
    public func pairSetup(code: String, identifier: String, key: Curve25519.Signing.PrivateKey) async throws -> TLV8 {
        let m2 = try await post("/pair-setup", TLV8([(.state, [1]), (.method, [0])]))
        guard let m2tlv = m2.tlv, m2tlv[.error] == nil, let salt = m2tlv[.salt], let serverKey = m2tlv[.publicKey]
        else { return m2.tlv ?? TLV8() }
        let srp = try SRPClient(
            group: .homeKit, username: "Pair-Setup", salt: salt, serverKey: serverKey, password: code)
        let m4 = try await post("/pair-setup", TLV8([(.state, [3]), (.publicKey, srp.publicKey), (.proof, srp.proof)]))
        guard let m4tlv = m4.tlv, m4tlv[.error] == nil else { return m4.tlv ?? TLV8() }
        guard m4tlv[.proof] == srp.expectedServerProof else { throw Failure("the accessory's SRP proof is wrong") }
        let encryption = HAPKeys.derive(
            srp.sessionKey, salt: "Pair-Setup-Encrypt-Salt", info: "Pair-Setup-Encrypt-Info")
        let x = HAPKeys.derive(
            srp.sessionKey, salt: "Pair-Setup-Controller-Sign-Salt", info: "Pair-Setup-Controller-Sign-Info")
        let id = Array(identifier.utf8)
        let ltpk = Array(key.publicKey.rawRepresentation)
        let signature = Array(try key.signature(for: HAPKeys.bytes(x) + id + ltpk))
        guard
            let sealed = HAPKeys.seal(
                TLV8([(.identifier, id), (.publicKey, ltpk), (.signature, signature)]).encoded, key: encryption,
                nonce: "PS-Msg05")
        else { throw Failure("sealing M5") }
        return try await post("/pair-setup", TLV8([(.state, [5]), (.encryptedData, sealed)])).tlv ?? TLV8()
    }

    /// Pair Verify M1 to M4 as `identifier`; on success the session is encrypted. Returns M4's TLV. `trailing`
    /// goes out in clear in the same write as M3 (an injection the accessory must refuse); an empty TLV when
    /// the accessory closes the connection instead of answering M3.
    @discardableResult
    public func pairVerify(
        identifier: String, key: Curve25519.Signing.PrivateKey, trailing: [UInt8] = []
    ) async throws -> TLV8 {
        let ephemeral = Curve25519.KeyAgreement.PrivateKey()
        let ephemeralBytes = Array(ephemeral.publicKey.rawRepresentation)
        let m2 = try await post("/pair-verify", TLV8([(.state, [1]), (.publicKey, ephemeralBytes)]))
        guard let m2tlv = m2.tlv, let accessoryKey = m2tlv[.publicKey] else { throw Failure("no M2") }
        let shared = try ephemeral.sharedSecretFromKeyAgreement(with: .init(rawRepresentation: accessoryKey))
            .withUnsafeBytes { Array($0) }
        let encryption = HAPKeys.derive(shared, salt: "Pair-Verify-Encrypt-Salt", info: "Pair-Verify-Encrypt-Info")
        let id = Array(identifier.utf8)
        let signature = Array(try key.signature(for: ephemeralBytes + id + accessoryKey))
        guard
            let sealed = HAPKeys.seal(
                TLV8([(.identifier, id), (.signature, signature)]).encoded, key: encryption, nonce: "PV-Msg03")
        else { throw Failure("sealing M3") }
        let m3 = TLV8([(.state, [3]), (.encryptedData, sealed)]).encoded
        try await send(
            Self.encode("POST", "/pair-verify", body: m3, contentType: "application/pairing+tlv8") + trailing)
        guard let m4 = try await receive() else { return TLV8() }
        let m4tlv = m4.tlv ?? TLV8()
        if m4tlv.byte(.state) == 4, m4tlv[.error] == nil {
            keys = (
                HAPKeys.derive(shared, salt: "Control-Salt", info: "Control-Write-Encryption-Key"),
                HAPKeys.derive(shared, salt: "Control-Salt", info: "Control-Read-Encryption-Key")
            )
        }
        return m4tlv
    }
}

/// The specification's frame nonce: four zero bytes, the counter in 8 bytes little endian.
public func frameNonce(_ counter: UInt64) throws -> ChaChaPoly.Nonce {
    try ChaChaPoly.Nonce(data: [0, 0, 0, 0] + (0..<8).map { UInt8(truncatingIfNeeded: counter >> (8 * $0)) })
}
