#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import FoundationEssentials
internal import Glibc
internal import SystemSupport

/// A pseudo-terminal that plays the role of a USB serial device for the emulators.
///
/// The emulator holds the master side; the client (libopenzwave, libcec) opens the slave, usually
/// through a stable symlink (`link`). The emulator also keeps one slave descriptor open itself so that
/// the master never sees a hang-up while the client closes and reopens the port.
///
/// Reading happens on a dedicated thread (`startReading`), which calls the handler with every chunk of
/// bytes the client wrote. `close()` is the "unplug": the master is closed (the client's reads fail) and
/// the link is removed.
public final class PseudoTerminal: @unchecked Sendable {
    // @unchecked Sendable: the mutable state (fds, reader thread flag) is guarded by `lock`.

    /// The slave device path (`/dev/pts/N`).
    public let slavePath: String
    /// The symlink pointing at `slavePath`, if one was requested.
    public let linkPath: String?

    private let lock = Condition()
    private var masterFD: Int32
    /// Writers currently using the master descriptor: it is closed only when none is (see `releaseMaster`).
    private var activeWriters = 0
    private var heldSlaveFD: Int32
    private var reading = false
    private var wakePipe: [Int32] = [-1, -1]

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

        self.masterFD = master
        self.heldSlaveFD = slave
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
        wakePipe = makeCloseOnExecPipe() ?? [-1, -1]
    }

    deinit {
        close()
        if wakePipe[0] >= 0 { _ = Glibc.close(wakePipe[0]) }
        if wakePipe[1] >= 0 { _ = Glibc.close(wakePipe[1]) }
    }

    /// Whether the pty is still open (not unplugged).
    public var isOpen: Bool {
        lock.lock()
        defer { lock.unlock() }
        return masterFD >= 0
    }

    /// Writes all bytes to the client. Waits (poll) while the pty's buffer is full; throws `.closed` when
    /// the pty is closed meanwhile. The descriptor stays valid while it writes (see `releaseMaster`).
    public func write(_ bytes: [UInt8]) throws(PseudoTerminalError) {
        lock.lock()
        let fd = masterFD
        guard fd >= 0 else {
            lock.unlock()
            throw .closed
        }
        activeWriters += 1
        lock.unlock()
        defer {
            lock.lock()
            activeWriters -= 1
            lock.broadcast()
            lock.unlock()
        }
        var offset = 0
        while offset < bytes.count {
            guard isOpen else { throw .closed }
            let n = bytes.withUnsafeBytes { raw in
                Glibc.write(fd, raw.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if n > 0 {
                offset += n
            } else if n < 0 && (errno == EAGAIN || errno == EINTR) {
                var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&pfd, 1, 100)
            } else {
                throw .system(call: "write", errno: errno)
            }
        }
    }

    /// Closes a master descriptor once no `write` uses it any more, so its number cannot be reused under a writer.
    private func releaseMaster(_ fd: Int32) {
        lock.lock()
        while activeWriters > 0 { lock.wait() }
        _ = Glibc.close(fd)
        lock.unlock()
    }

    /// Starts a dedicated reader thread that calls `handler` with each chunk the client writes, until
    /// `close()`. The handler runs on that thread and must not block for long. Returns false when nothing reads:
    /// already reading, closed, or no thread could be started (then a later call may try again).
    @discardableResult
    public func startReading(_ handler: @escaping @Sendable ([UInt8]) -> Void) -> Bool {
        lock.lock()
        guard !reading, masterFD >= 0 else {
            lock.unlock()
            return false
        }
        reading = true
        let fd = masterFD
        let wake = wakePipe[0]
        wakePipe[0] = -1  // now the reader thread's to close
        lock.unlock()
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
                var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
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
            lock.lock()
            let open = masterFD == fd
            if open {  // the descriptors are the pty's again, as before the call
                reading = false
                wakePipe[0] = wake
            }
            lock.unlock()
            if !open {  // closed meanwhile: `close()` left them to the reader, which never ran
                releaseMaster(fd)
                _ = Glibc.close(wake)
            }
        }
        return started
    }

    /// Unplugs: stops the reader, closes both sides and removes the link. Idempotent.
    public func close() {
        lock.lock()
        let master = masterFD
        let slave = heldSlaveFD
        masterFD = -1
        heldSlaveFD = -1
        let wasReading = reading
        reading = false
        lock.unlock()
        if wasReading, wakePipe[1] >= 0 {
            var byte: UInt8 = 1
            _ = Glibc.write(wakePipe[1], &byte, 1)
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

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .closed: "the pseudo-terminal is closed (unplugged)"
        }
    }
}
