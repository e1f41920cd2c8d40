import Foundation
import Synchronization

/// A dashboard for the benchmark: a minimal WebSocket client (RFC 6455, text frames from the server, pongs to its
/// pings) on a blocking loopback socket, whose reader thread stamps every message with its arrival time in an
/// `Inbox`, as the bridge's WebSocket delivers it. Close it with `close()`.
final class BenchWebSocket: Sendable {
    let inbox = Inbox<String>()
    private let fd: Int32
    private let closed = Mutex(false)
    private let finished = Inbox<Bool>()

    /// Connects to `ws://127.0.0.1:<port><path>` and completes the upgrade (101).
    init(port: Int, path: String = "/ws") throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket() failed: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw BenchError("cannot connect to the dashboard at port \(port): errno \(errno)")
        }
        self.fd = fd
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try send(Array(request.utf8))
        var head: [UInt8] = []
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
            var byte: UInt8 = 0
            guard read(fd, &byte, 1) == 1, head.count < 8192 else {
                Glibc.close(fd)
                throw BenchError("the dashboard closed during the WebSocket upgrade")
            }
            head.append(byte)
        }
        guard String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
            Glibc.close(fd)
            throw BenchError(
                "the dashboard refused the WebSocket: \(String(decoding: head.prefix(200), as: UTF8.self))")
        }
        let thread = Thread { [self] in readFrames() }
        thread.name = "bench-ws"
        thread.start()
    }

    /// The first message at index ≥ `from` that contains `fragment`.
    func wait(containing fragment: String, from: Int, timeout: Duration) async -> Inbox<String>.Stamped? {
        await inbox.next(from: from, timeout: timeout) { $0.contains(fragment) }
    }

    func close() async {
        let wasClosed = closed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        shutdown(fd, Int32(SHUT_RDWR))
        _ = await finished.next(from: 0, timeout: .seconds(5)) { _ in true }
        Glibc.close(fd)
    }

    private func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written > 0 else { throw BenchError("write to the dashboard failed: errno \(errno)") }
            offset += written
        }
    }

    private func readExactly(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let got = bytes[offset...].withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard got > 0 else { return nil }
            offset += got
        }
        return bytes
    }

    /// Reads frames until the socket ends: text messages into the inbox, a pong for every ping.
    private func readFrames() {
        defer { finished.put(true) }
        var message: [UInt8] = []
        while let header = readExactly(2) {
            let opcode = header[0] & 0x0F
            var length = Int(header[1] & 0x7F)
            if length == 126 {
                guard let extended = readExactly(2) else { return }
                length = Int(extended[0]) << 8 | Int(extended[1])
            } else if length == 127 {
                guard let extended = readExactly(8) else { return }
                length = extended.reduce(0) { $0 << 8 | Int($1) }
            }
            guard let payload = length == 0 ? [] : readExactly(length) else { return }
            switch opcode {
            case 0x0, 0x1:
                message += payload
                if header[0] & 0x80 != 0 {
                    inbox.put(String(decoding: message, as: UTF8.self))
                    message.removeAll(keepingCapacity: true)
                }
            case 0x9:
                // A pong with the ping's data, masked (a client masks every frame); the mask is zero.
                try? send([0x8A, 0x80 | UInt8(payload.count), 0, 0, 0, 0] + payload)
            case 0x8:
                return
            default:
                continue
            }
        }
    }
}
