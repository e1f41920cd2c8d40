import FoundationEssentials
internal import Glibc
internal import Synchronization
internal import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A FIFO (named pipe) that accepts control lines for a `ZWaveStickEmulator` (see `execute(_:)`), e.g.
/// `echo "press 2 s2 single" > /tmp/zwave.ctl`. A reader thread runs until `close()`.
///
/// The reader thread owns the descriptor: it is the only one to use and close it, so a closed number can never
/// be read again after another part of the process (a serial port, a socket) got it.
public final class EmulatorControlChannel: Sendable {

    /// The FIFO's path.
    public let path: String
    /// Whether the reader thread should go on.
    private let running = Mutex(true)

    /// Creates the FIFO at `path` (replacing a stale one) and starts reading lines; each line's result is
    /// passed to `onResult` (on the reader thread).
    public init(
        path: String, emulator: ZWaveStickEmulator,
        onResult: @escaping @Sendable (_ line: String, _ result: String) -> Void
    ) throws(EmulatorControlChannelError) {
        self.path = path
        _ = unlink(path)
        guard mkfifo(path, 0o600) == 0 else { throw .system(call: "mkfifo(\(path))", errno: errno) }
        // O_RDWR keeps a writer open ourselves, so the FIFO never reports EOF between clients.
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            _ = unlink(path)
            throw .system(call: "open(\(path))", errno: e)
        }
        let started = startThread(name: "zwave-emulator-control") { [weak self] in
            defer { _ = Glibc.close(fd) }
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1024)
            while self?.isRunning == true {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 200) > 0 else { continue }
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                guard n > 0 else { continue }
                pending += buffer[0..<n]
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self).trimmingWhitespace()
                    pending.removeSubrange(...newline)
                    if !line.isEmpty { onResult(line, emulator.execute(line)) }
                }
            }
        }
        guard started else {
            _ = Glibc.close(fd)
            _ = unlink(path)
            throw .system(call: "pthread_create (the FIFO's reader)", errno: EAGAIN)
        }
    }

    private var isRunning: Bool { running.withLock { $0 } }

    /// Stops the reader (it closes the FIFO within 200 ms) and removes the FIFO. Idempotent.
    public func close() {
        let wasRunning = running.withLock { running in
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        _ = unlink(path)
    }

    deinit { close() }
}

/// Errors from setting up the control channel, naming the failing call.
public enum EmulatorControlChannelError: Error, CustomStringConvertible, Sendable {
    /// A system call failed with `errno`.
    case system(call: String, errno: Int32)

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        }
    }
}
