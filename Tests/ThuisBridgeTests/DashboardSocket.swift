import Foundation
import Glibc
import TestSupport

/// A dashboard's WebSocket on the bridge's `/ws`, over a plain TCP socket: the upgrade, then the first frame the
/// server sends (the snapshot), which shows the client is connected and served. It reads nothing more: it stays
/// open, as a tablet's page does, until `disconnect()`.
final class DashboardSocket: Sendable {
    let descriptor: Int32

    /// Connects to `127.0.0.1:port`, upgrades to a WebSocket and reads the server's first frame (blocking, each read
    /// up to `timeout` seconds).
    init(port: Int, timeout: Int = 10) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError("socket() failed: errno \(errno)") }
        descriptor = fd
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(clamping: port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw TestSupportError("connect to 127.0.0.1:\(port) failed: errno \(errno)")
        }
        let request =
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        let bytes = Array(request.utf8)
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == bytes.count else {
            Glibc.close(fd)
            throw TestSupportError("sending the upgrade failed: errno \(errno)")
        }
        // The response head, then at least the first frame's header.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else {
                Glibc.close(fd)
                throw TestSupportError(
                    "the WebSocket upgrade got no complete answer (errno \(errno)): "
                        + String(decoding: received, as: UTF8.self))
            }
            received += buffer[..<count]
            let text = String(decoding: received, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { continue }
            guard text.hasPrefix("HTTP/1.1 101") else {
                Glibc.close(fd)
                throw TestSupportError("the WebSocket upgrade was refused: \(text.prefix(200))")
            }
            if text.utf8.distance(from: text.utf8.startIndex, to: end.upperBound) < received.count { break }
        }
    }

    func disconnect() {
        _ = Glibc.close(descriptor)
    }
}
