import FoundationEssentials
internal import Glibc
internal import SystemSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pseudo-terminal that plays the role of a USB serial device for the emulators.
///
/// The emulator holds the master side; the client (libopenzwave, libcec) opens the slave, usually
/// through a stable symlink (`link`). The emulator also keeps one slave descriptor open itself so that
/// the master never sees a hang-up while the client closes and reopens the port.
///
/// Reading happens on a dedicated thread (`startReading`), which calls the handler with every chunk of
/// bytes the client wrote. `close()` is the "unplug": the master is closed (the client's reads fail) and
/// the link is removed.
public final class PseudoTerminal: Sendable {

    /// The slave device path (`/dev/pts/N`).
    public let slavePath: String
    /// The symlink pointing at `slavePath`, if one was requested.
    public let linkPath: String?

    /// The descriptors and the reader's state; `close()` waits on it for the writers to leave.
    private let state: ConditionMutex<State>
    /// The wake pipe's write end (-1 without a pipe): `close()` writes to it to stop the reader thread.
    private let wakeWriteFD: Int32

    private struct State {
        var masterFD: Int32
        /// Writers currently using the master descriptor: it is closed only when none is (see `releaseMaster`).
        var activeWriters = 0
        var heldSlaveFD: Int32
        var reading = false
        /// The wake pipe's read end while no reader thread owns it (-1 then, or without a pipe).
        var wakeReadFD: Int32
    }

    /// `_IOW('T', 0x31, int)` and `_IOR('T', 0x30, unsigned int)` from asm-generic/ioctls.h (x86_64, arm64).
    private static let tiocsptlck = UInt(0x4004_5431)
    private static let tiocgptn = UInt(0x8004_5430)

    /// Opens a new pty (`posix_openpt`, `grantpt`, `unlockpt`), puts the slave in raw mode and, when
    /// `link` is given, (re)creates a symlink there pointing at the slave device.
    public init(link: String? = nil) throws(PseudoTerminalError) {
        // posix_openpt/unlockpt/ptsname are not visible to Swift's Glibc module; these are their
        // Linux implementations: open the multiplexer, unlock (TIOCSPTLCK), read the number (TIOCGPTN).
        // O_CLOEXEC everywhere: a child process (a bridge, a broker) must never inherit the emulator's pty,
        // or closing it here would not unplug it.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw .system(call: "open(/dev/ptmx)", errno: errno) }
        var unlock: Int32 = 0
        guard ioctl(master, PseudoTerminal.tiocsptlck, &unlock) == 0 else {
            let e = errno
            _ = Glibc.close(master)
            throw .system(call: "ioctl(TIOCSPTLCK)", errno: e)
        }
        var number: UInt32 = 0
        guard ioctl(master, PseudoTerminal.tiocgptn, &number) == 0 else {
            let e = errno
            _ = Glibc.close(master)
            throw .system(call: "ioctl(TIOCGPTN)", errno: e)
        }
        let path = "/dev/pts/\(number)"
        let slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            let e = errno
            _ = Glibc.close(master)
            throw .system(call: "open(\(path))", errno: e)
        }
        var tio = termios()
        if tcgetattr(slave, &tio) == 0 {
            cfmakeraw(&tio)
            _ = tcsetattr(slave, TCSANOW, &tio)
        }
        // The master must never block the emulator's writer.
        let flags = fcntl(master, F_GETFL)
        _ = fcntl(master, F_SETFL, flags | O_NONBLOCK)

        self.slavePath = path
        self.linkPath = link
        if let link {
            _ = unlink(link)
            guard symlink(path, link) == 0 else {
                let e = errno
                _ = Glibc.close(slave)
                _ = Glibc.close(master)
                throw .system(call: "symlink(\(link))", errno: e)
            }
        }
        let wakePipe = makeCloseOnExecPipe() ?? [-1, -1]
        state = ConditionMutex(State(masterFD: master, heldSlaveFD: slave, wakeReadFD: wakePipe[0]))
        wakeWriteFD = wakePipe[1]
    }

    deinit {
        close()
        let wakeReadFD = state.withLock { $0.wakeReadFD }
        if wakeReadFD >= 0 { _ = Glibc.close(wakeReadFD) }
        if wakeWriteFD >= 0 { _ = Glibc.close(wakeWriteFD) }
    }

    /// Whether the pty is still open (not unplugged).
    public var isOpen: Bool { state.withLock { $0.masterFD >= 0 } }

    /// How long `write` waits for a client that does not read (the pty's buffer full) before it gives up on
    /// the rest, as a USB serial adapter's buffer overflows when its host stops reading.
    public static let writeStallLimit: Duration = .seconds(1)

    /// Writes all bytes to the client. Waits (poll) while the pty's buffer is full, at most `writeStallLimit`
    /// without progress (then throws `.stalled` with what was not written); throws `.closed` when the pty is
    /// closed meanwhile. The descriptor stays valid while it writes (see `releaseMaster`).
    public func write(_ bytes: [UInt8]) throws(PseudoTerminalError) {
        let claimed = state.withLock { state -> Int32? in
            guard state.masterFD >= 0 else { return nil }
            state.activeWriters += 1
            return state.masterFD
        }
        guard let fd = claimed else { throw .closed }
        defer {
            state.withLock { $0.activeWriters -= 1 }
            state.broadcast()
        }
        var offset = 0
        var lastProgress = ContinuousClock.now
        while offset < bytes.count {
            guard isOpen else { throw .closed }
            let n = bytes.withUnsafeBytes { raw in
                Glibc.write(fd, raw.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if n > 0 {
                offset += n
                lastProgress = .now
            } else if n < 0 && (errno == EAGAIN || errno == EINTR) {
                guard ContinuousClock.now - lastProgress < Self.writeStallLimit else {
                    throw .stalled(unwritten: bytes.count - offset)
                }
                var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&pfd, 1, 100)
            } else {
                throw .system(call: "write", errno: errno)
            }
        }
    }

    /// Closes a master descriptor once no `write` uses it any more, so its number cannot be reused under a writer.
    private func releaseMaster(_ fd: Int32) {
        _ = state.wait { state -> Void? in
            guard state.activeWriters == 0 else { return nil }
            _ = Glibc.close(fd)
            return ()
        }
    }

    /// Starts a dedicated reader thread that calls `handler` with each chunk the client writes, until
    /// `close()`. The handler runs on that thread and must not block for long. Returns false when nothing reads:
    /// already reading, closed, or no thread could be started (then a later call may try again).
    @discardableResult
    public func startReading(_ handler: @escaping @Sendable ([UInt8]) -> Void) -> Bool {
        let claimed = state.withLock { state -> (master: Int32, wake: Int32)? in
            guard !state.reading, state.masterFD >= 0 else { return nil }
            state.reading = true
            defer { state.wakeReadFD = -1 }  // now the reader thread's to close
            return (state.masterFD, state.wakeReadFD)
        }
        guard let claimed else { return false }
        let fd = claimed.master
        let wake = claimed.wake
        // The reader thread owns the master descriptor and the wake pipe's read end once it runs: it closes
        // them when it leaves, so their numbers cannot be reused by a new pty while it still polls them.
        let path = slavePath
        let started = startThread(name: "pty-reader") { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            var unexpected: String?  // why the reader stopped, when `close()` did not ask it to
            defer {
                // A pty that stops answering without an unplug is otherwise silent: say why.
                if let unexpected {
                    writeStandardError("pty reader of \(path) (master \(fd)) stopped: \(unexpected)\n")
                }
                // Without `self` nobody can be writing any more.
                if let self { self.releaseMaster(fd) } else { _ = Glibc.close(fd) }
                _ = Glibc.close(wake)
            }
            while true {
                var fds = [
                    pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
                ]
                let r = poll(&fds, 2, 500)
                if r < 0 && errno != EINTR {
                    unexpected = "poll failed, errno \(errno)"
                    break
                }
                if fds[1].revents != 0 {
                    if fds[1].revents & Int16(POLLIN) == 0 {
                        unexpected = "wake pipe \(wake), poll events \(fds[1].revents)"
                    }
                    break
                }
                if fds[0].revents & Int16(POLLNVAL) != 0 {
                    unexpected = "the master descriptor is not open (POLLNVAL)"
                    break
                }
                if fds[0].revents & Int16(POLLIN) != 0 {
                    let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                    if n > 0 {
                        handler(Array(buffer[0..<n]))
                    } else if n < 0 && errno != EAGAIN && errno != EINTR && errno != EIO {
                        unexpected = "read failed, errno \(errno)"
                        break
                    }
                }
            }
        }
        if !started {
            let open = state.withLock { state in
                guard state.masterFD == fd else { return false }
                // the descriptors are the pty's again, as before the call
                state.reading = false
                state.wakeReadFD = wake
                return true
            }
            if !open {  // closed meanwhile: `close()` left them to the reader, which never ran
                releaseMaster(fd)
                _ = Glibc.close(wake)
            }
        }
        return started
    }

    /// Unplugs: stops the reader, closes both sides and removes the link. Idempotent.
    public func close() {
        let (master, slave, wasReading) = state.withLock { state in
            defer {
                state.masterFD = -1
                state.heldSlaveFD = -1
                state.reading = false
            }
            return (state.masterFD, state.heldSlaveFD, state.reading)
        }
        if wasReading, wakeWriteFD >= 0 {
            var byte: UInt8 = 1
            _ = Glibc.write(wakeWriteFD, &byte, 1)
        }
        if let linkPath, master >= 0 {
            // Only remove the link if it still points at us (a replug may have replaced it).
            var target = [CChar](repeating: 0, count: 256)
            let n = readlink(linkPath, &target, target.count - 1)
            if n > 0 {
                let current = String(decoding: target[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if current == slavePath { _ = unlink(linkPath) }
            }
        }
        if slave >= 0 { _ = Glibc.close(slave) }
        // A reading pty's master is closed by its reader thread as it leaves (see `startReading`).
        if master >= 0, !wasReading { releaseMaster(master) }
    }
}

/// Errors from `PseudoTerminal`, naming the failing call.
public enum PseudoTerminalError: Error, CustomStringConvertible, Sendable {
    case system(call: String, errno: Int32)
    case closed
    /// The client did not read for `PseudoTerminal.writeStallLimit`: this many bytes were not written.
    case stalled(unwritten: Int)

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .closed: "the pseudo-terminal is closed (unplugged)"
        case .stalled(let unwritten): "the client does not read: \(unwritten) bytes not written"
        }
    }
}
