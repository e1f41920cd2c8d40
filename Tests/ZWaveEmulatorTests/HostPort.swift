import Foundation
import ZWaveEmulator

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal Serial API host for tests: opens the emulator's link like OpenZWave does, writes frames, and
/// reads tokens (auto-ACKing the stick's data frames unless told otherwise).
final class HostPort {
    enum Failure: Error { case open(String, Int32) }

    private let fd: Int32
    private var parser = SerialFrameParser()
    private var pending: [SerialToken] = []
    var autoAck = true

    init(path: String) throws {
        let descriptor = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure.open(path, errno) }
        var tio = termios()
        if tcgetattr(descriptor, &tio) == 0 {
            cfmakeraw(&tio)
            _ = tcsetattr(descriptor, TCSANOW, &tio)
        }
        fd = descriptor
    }

    deinit { _ = close(fd) }

    func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    }

    func send(_ frame: SerialFrame) { write(frame.encoded) }

    /// The next token, or nil after `timeout` seconds.
    func next(timeout: Double = 2) -> SerialToken? {
        let deadline = Date().addingTimeInterval(timeout)
        while pending.isEmpty {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(max(1, remaining * 1000))) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 1024)
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { continue }
            for token in parser.feed(buffer[0..<n]) {
                if autoAck, case .frame = token { write([SerialFrame.ack]) }
                pending.append(token)
            }
        }
        return pending.removeFirst()
    }

    /// The next data frame (skipping ACKs), or nil.
    func nextFrame(timeout: Double = 2) -> SerialFrame? {
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            if case .frame(let f) = next(timeout: deadline.timeIntervalSinceNow) { return f }
        }
        return nil
    }

    /// Sends a request and returns the token that follows (expected: ACK) plus the data frames that arrive
    /// within `collect` seconds.
    func transact(_ frame: SerialFrame, collect: Double = 0.3) -> (ack: SerialToken?, frames: [SerialFrame]) {
        send(frame)
        let ack = next()
        var frames: [SerialFrame] = []
        let deadline = Date().addingTimeInterval(collect)
        while deadline.timeIntervalSinceNow > 0 {
            if case .frame(let f) = next(timeout: deadline.timeIntervalSinceNow) { frames.append(f) }
        }
        return (ack, frames)
    }
}

/// Parses `"01 03 00 15 E9"`.
func bytes(_ text: String) -> [UInt8] {
    text.split(separator: " ").compactMap { UInt8($0, radix: 16) }
}
