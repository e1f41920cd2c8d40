import CECEmulator
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The host side of the emulated adapter for tests: opens the link like libcec does and speaks raw bytes.
final class HostPort {
    let fd: Int32
    private var decoder = HostDecoder()

    init(path: String) throws {
        fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXError(.ENOENT) }
    }

    deinit { _ = close(fd) }

    func send(_ messages: [AdapterMessage]) {
        let bytes = messages.flatMap(\.encoded)
        sendRaw(bytes)
    }

    func sendRaw(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// Reads adapter messages until `count` arrived or the deadline passed.
    func receive(_ count: Int, timeout: Duration = .seconds(3)) -> [AdapterMessage] {
        var out: [AdapterMessage] = []
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 1024)
        while out.count < count && ContinuousClock.now < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 50) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { out += decoder.feed(Array(buffer[0..<n])) }
        }
        return out
    }
}

/// Adapter → host decoding (no libcec quirks in this direction).
struct HostDecoder {
    private var inFrame = false
    private var escaped = false
    private var bytes: [UInt8] = []

    mutating func feed(_ input: [UInt8]) -> [AdapterMessage] {
        var out: [AdapterMessage] = []
        for b in input {
            if b == 0xFF { inFrame = true; bytes = []; escaped = false; continue }
            guard inFrame else { continue }
            if b == 0xFE {
                inFrame = false
                if let code = bytes.first {
                    out.append(AdapterMessage(codeByte: code, payload: Array(bytes.dropFirst())))
                }
                continue
            }
            if escaped {
                bytes.append(b &+ 3); escaped = false
            } else if b == 0xFD {
                escaped = true
            } else {
                bytes.append(b)
            }
        }
        return out
    }
}
