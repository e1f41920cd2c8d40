import FoundationEssentials
internal import Glibc
internal import SerialPTY
internal import SystemSupport

/// A child process of the tests, the bench or the demo, with its stdout and stderr captured line by line (or written
/// to a log file). Two reader threads drain the pipes continuously, so the child never blocks on a full pipe; a third
/// thread reaps it (`waitpid`). The helper threads keep the object alive until the child exits: always `stop()` or
/// `kill()` it.
public final class ChildProcess: @unchecked Sendable {  // `pid` is set once in init; the rest is Sendable
    public enum Stream: String, Sendable { case stdout, stderr }

    /// Where the child's stdout and stderr go.
    public enum Output: Sendable, Equatable {
        /// Pipes read line by line into ``output`` and ``lines``.
        case captured
        /// Both into the file at this path (created or truncated), read back by ``output``: a long run's log that
        /// stays for people to read, without reader threads in this process.
        case file(String)
    }

    /// One line of output (without the newline).
    public struct Line: Sendable, CustomStringConvertible {
        public let stream: Stream
        public let text: String
        public var description: String { "[\(stream.rawValue)] \(text)" }
    }

    /// How the child ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)
        public var description: String {
            switch self {
            case .exited(let code): "exit \(code)"
            case .signalled(let signal): "signal \(signal)"
            }
        }
    }

    /// Every output line as it arrives (newest 10 000 buffered).
    public let lines: AsyncStream<Line>
    public private(set) var pid: Int32 = 0
    public let executable: String
    public let arguments: [String]
    /// The log file, with `Output.file`.
    public let logPath: String?
    /// When the child was started (just before `posix_spawn`).
    public let started: ContinuousClock.Instant

    private let continuation: AsyncStream<Line>.Continuation
    /// What the reader and reaper threads have seen.
    private struct State {
        var record: [Line] = []
        var termination: Termination?
        var openStreams = 2
        /// The write end of the child's stdin pipe (`standardInput: true`) until `closeInput()`.
        var input: Int32?
    }

    /// A pthread mutex, not `Synchronization.Mutex`: the two readers, the reaper and the test contend for it, and a
    /// contended `Mutex` waits in the kernel (a priority-inheriting futex), where ThreadSanitizer does not see the
    /// hand-over, so it reported the readers' updates of `state` as data races (DocC Development, "Sanitizers and
    /// fuzzers").
    private let state = ConditionMutex(State())
    private static let recordLimit = 50_000

    /// Starts `executable` (an absolute path) with `arguments`; `environment` entries override the
    /// inherited environment. The child starts with an empty signal mask and default signal handlers:
    /// Swift's worker threads block most signals, and a child spawned from one (e.g. by Foundation's
    /// `Process`) would inherit that and ignore SIGTERM. Its stdin is /dev/null, or with `standardInput` a
    /// pipe that `writeInput(_:)` writes to (and that stays silent until the child ends, for one that waits on
    /// its input). With `ownProcessGroup` it leads a process group of its own, so the Ctrl-C the terminal sends to
    /// this process's group does not reach it.
    public init(
        executable: String, arguments: [String] = [], environment: [String: String] = [:],
        workingDirectory: String? = nil, standardInput: Bool = false, output: Output = .captured,
        ownProcessGroup: Bool = false
    ) throws(LabError) {
        self.executable = executable
        self.arguments = arguments
        if case .file(let path) = output { logPath = path } else { logPath = nil }
        (lines, continuation) = AsyncStream.makeStream(of: Line.self, bufferingPolicy: .bufferingNewest(10_000))
        var outputPipes: [Int32] = []  // stdout's read and write ends, then stderr's
        if output == .captured {
            do {
                outputPipes = try Self.makePipe()
                outputPipes += try Self.makePipe()
            } catch {
                for fd in outputPipes { close(fd) }
                throw error
            }
        }
        let inputPipe: [Int32]?
        do {
            inputPipe = standardInput ? try Self.makePipe() : nil
        } catch {
            for fd in outputPipes { close(fd) }
            throw error
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let inputPipe {
            posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let logPath {
            posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_adddup2(&actions, outputPipes[1], 1)
            posix_spawn_file_actions_adddup2(&actions, outputPipes[3], 2)
        }
        // Nothing else of the test process (emulator ptys, other tests' MQTT sockets) leaks into the child:
        // glibc's posix_spawn_file_actions_addclosefrom_np (2.34+), which Swift's Glibc module does not export.
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2, SIGCHLD] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let environmentLines = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            .map { "\($0.key)=\($0.value)" }
        // posix_spawn has no portable chdir action: a working directory goes through `sh -c 'cd ... && exec'`.
        let commandLine =
            workingDirectory.map { ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", $0, executable] + arguments }
            ?? [executable] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = commandLine.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environmentLines.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var childPID: pid_t = 0
        started = .now
        let spawned = posix_spawn(
            &childPID, workingDirectory == nil ? executable : "/bin/sh", &actions, &attributes, argv, envp)
        if outputPipes.count == 4 {
            close(outputPipes[1])
            close(outputPipes[3])
        }
        if let inputPipe { close(inputPipe[0]) }
        guard spawned == 0 else {
            if outputPipes.count == 4 {
                close(outputPipes[0])
                close(outputPipes[2])
            }
            if let inputPipe { close(inputPipe[1]) }
            continuation.finish()
            throw LabError("could not start \(executable): \(String(cString: strerror(spawned)))")
        }
        pid = childPID
        state.withLock { $0.input = inputPipe?[1] }
        if outputPipes.count == 4 {
            startReader(outputPipes[0], .stdout)
            startReader(outputPipes[2], .stderr)
        } else {
            state.withLock { $0.openStreams = 0 }
            continuation.finish()
        }
        startReaper()
    }

    /// Finds `name` in `PATH`, then in `extraDirectories` (e.g. `/usr/sbin`).
    public static func locate(_ name: String, extraDirectories: [String] = ["/usr/sbin", "/usr/local/sbin", "/sbin"])
        -> String?
    {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":").map(String.init) + extraDirectories {
            let candidate = Path.join(directory, name)
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs a tool to completion and returns its output; throws when it fails or exceeds `timeout`.
    @discardableResult
    public static func run(
        _ executable: String, _ arguments: [String], timeout: Duration = .seconds(30)
    ) async throws(LabError) -> String {
        let child = try ChildProcess(executable: executable, arguments: arguments)
        guard let result = await child.waitForExit(timeout: timeout) else {
            _ = await child.stop()
            throw LabError("\(executable) \(arguments.joined(separator: " ")) timed out:\n\(child.outputText)")
        }
        await child.waitForOutputEnd(timeout: .seconds(2))
        guard result == .exited(0) else {
            throw LabError(
                "\(executable) \(arguments.joined(separator: " ")) failed (\(result)):\n\(child.outputText)")
        }
        return child.outputText
    }

    /// Writes `text` to the child's stdin (started with `standardInput: true`); throws when the child is gone.
    public func writeInput(_ text: String) throws(LabError) {
        // A write to a pipe nobody reads raises SIGPIPE, which would end the whole test process: the test
        // process takes EPIPE instead (children get the default action back, see `init`).
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
        try state.withLock { (state) throws(LabError) in
            guard let fd = state.input else { throw LabError("\(executable): no stdin pipe (closed?)") }
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else {
                    throw LabError("\(executable): writing its stdin failed: errno \(errno)")
                }
                bytes = bytes.dropFirst(written)
            }
        }
    }

    /// Closes the child's stdin (it reads EOF); also done when the child exits.
    public func closeInput() {
        if let fd = takeInput() { close(fd) }
    }

    private func takeInput() -> Int32? {
        state.withLock { state in
            let fd = state.input
            state.input = nil
            return fd
        }
    }

    /// Every line received so far (the first 50 000); with `Output.file`, the log file's lines (as `stdout`).
    public var output: [Line] {
        guard logPath != nil else { return state.withLock { $0.record } }
        return outputText.split(separator: "\n", omittingEmptySubsequences: false).map {
            Line(stream: .stdout, text: String($0))
        }
    }

    /// All output so far as one text.
    public var outputText: String {
        guard let logPath else { return output.map(\.text).joined(separator: "\n") }
        return (try? readTextFile(logPath)) ?? ""
    }

    /// How the child ended, or nil while it runs.
    public var terminated: Termination? { state.withLock { $0.termination } }

    public var isRunning: Bool { terminated == nil }

    /// Sends `signal` (e.g. SIGTERM, SIGKILL, SIGINT) unless the child has already exited.
    public func signal(_ signal: Int32) {
        guard isRunning else { return }
        Glibc.kill(pid, signal)
    }

    /// SIGKILL.
    public func kill() { signal(SIGKILL) }

    /// Waits until the child exits; nil after `timeout`.
    public func waitForExit(timeout: Duration) async -> Termination? {
        let deadline = ContinuousClock.now.advanced(by: LabTime.scaled(timeout))
        while ContinuousClock.now < deadline {
            if let terminated { return terminated }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return terminated
    }

    /// SIGTERM, wait up to `timeout`, then SIGKILL and wait. Returns how it ended.
    @discardableResult
    public func stop(timeout: Duration = .seconds(5)) async -> Termination? {
        signal(SIGTERM)
        if let result = await waitForExit(timeout: timeout) { return result }
        signal(SIGKILL)
        return await waitForExit(timeout: .seconds(5))
    }

    /// The first line so far or within `timeout` that satisfies `predicate`.
    public func waitForLine(timeout: Duration, where predicate: (Line) -> Bool) async -> Line? {
        let deadline = ContinuousClock.now.advanced(by: LabTime.scaled(timeout))
        repeat {
            if let line = output.first(where: predicate) { return line }
            try? await Task.sleep(for: .milliseconds(10))
        } while ContinuousClock.now < deadline
        return output.first(where: predicate)
    }

    /// Waits until both pipes reached EOF (all output read).
    public func waitForOutputEnd(timeout: Duration) async {
        let deadline = ContinuousClock.now.advanced(by: LabTime.scaled(timeout))
        while ContinuousClock.now < deadline, state.withLock({ $0.openStreams > 0 }) {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    private func didTerminate(_ result: Termination) {
        state.withLock { $0.termination = result }
        closeInput()
    }

    /// A pipe whose ends are close-on-exec (the child gets only the dup2'd copies).
    private static func makePipe() throws(LabError) -> [Int32] {
        // pipe2 with O_CLOEXEC: atomically, so a child spawned meanwhile by another test cannot inherit the
        // write end (which would keep this reader from ever seeing EOF).
        guard let fds = makeCloseOnExecPipe() else { throw LabError("pipe2 failed: errno \(errno)") }
        return fds
    }

    /// Reads `fd` until EOF on its own thread, splitting lines.
    private func startReader(_ fd: Int32, _ stream: Stream) {
        let running = startThread(name: "child-\(stream.rawValue)") { [self] in
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                pending.append(contentsOf: buffer[0..<count])
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    emit(Line(stream: stream, text: String(decoding: pending[..<newline], as: UTF8.self)))
                    pending.removeSubrange(...newline)
                }
            }
            if !pending.isEmpty { emit(Line(stream: stream, text: String(decoding: pending, as: UTF8.self))) }
            close(fd)
            let remaining = state.withLock {
                $0.openStreams -= 1
                return $0.openStreams
            }
            if remaining == 0 { continuation.finish() }
        }
        if !running {
            close(fd)
            let remaining = state.withLock {
                $0.openStreams -= 1
                return $0.openStreams
            }
            if remaining == 0 { continuation.finish() }
        }
    }

    /// Waits for the child on its own thread (`waitpid`) and records how it ended.
    private func startReaper() {
        let pid = pid
        let running = startThread(name: "child-wait") { [self] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 {
                if errno != EINTR {
                    didTerminate(.exited(-1))
                    return
                }
            }
            let signal = status & 0x7f
            didTerminate(signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal))
        }
        if !running { didTerminate(.exited(-1)) }
    }

    private func emit(_ line: Line) {
        state.withLock {
            if $0.record.count < Self.recordLimit { $0.record.append(line) }
        }
        continuation.yield(line)
    }
}
