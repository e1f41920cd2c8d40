import FoundationEssentials
internal import Glibc
public import SerialPTY
internal import Synchronization

/// An emulated Pulse-Eight USB-CEC adapter on a pseudo-terminal, in front of an emulated CEC bus with a TV
/// (LA 0), an audio system (LA 5) and a playback device (LA 4).
///
/// The host (libcec, cec-client) opens the pty's slave through the symlink given to `start(link:)`. The
/// adapter answers the handshake, the settings commands, transmissions (one COMMAND_ACCEPTED per packet,
/// then TRANSMIT_SUCCEEDED or TRANSMIT_FAILED_ACK) and forwards everything the emulated devices send as
/// FRAME_START/FRAME_DATA messages. The control API plays the devices' own remotes, unplugs, replugs and
/// hangs the adapter, injects raw traffic and records every frame the host transmitted.
public final class CECAdapterEmulator: Sendable {
    /// The adapter, the bus and the recording, shared by the pty reader thread and the control API. Held only
    /// to read or change them, never while writing to the host: a host that does not read must not stop the
    /// emulator's observers (`state`, the waits for frames) or its unplug.
    let adapter: Mutex<Adapter>
    /// Serialises the writes to the host (the pty reader's answers, the bus frames the control API sends) in the
    /// order their bytes were made; taken before `adapter`, released after the write.
    private let writer = Mutex(())
    private let trace: (@Sendable (String) -> Void)?

    /// Creates the emulator; nothing happens until `start(link:)`.
    /// - Parameter trace: called with one decoded line per adapter message and bus frame (optional).
    public init(
        configuration: CECEmulatorConfiguration = CECEmulatorConfiguration(),
        trace: (@Sendable (String) -> Void)? = nil
    ) {
        self.trace = trace
        adapter = Mutex(Adapter(configuration: configuration, tracing: trace != nil))
    }

    deinit {
        adapter.withLock { $0.terminal }?.close()
    }

    // MARK: Lifecycle

    /// Creates the pty, links it at `link` and starts serving.
    public func start(link: String) throws(CECEmulatorError) {
        let pty: PseudoTerminal
        do { pty = try PseudoTerminal(link: link) } catch { throw .pseudoTerminal(error) }
        let old = adapter.withLock { adapter -> PseudoTerminal? in
            let old = adapter.terminal
            adapter.link = link
            adapter.terminal = pty
            adapter.stopped = false
            adapter.reset()
            return old
        }
        old?.close()
        pty.startReading { [weak self] bytes in self?.received(bytes) }
        emit(["adapter plugged in at \(link) (\(pty.slavePath))"])
    }

    /// Stops serving: closes the pty and removes the link. Idempotent.
    public func stop() {
        let pty = adapter.withLock { adapter -> PseudoTerminal? in
            adapter.stopped = true
            defer { adapter.terminal = nil }
            return adapter.terminal
        }
        pty?.close()
        failAllWaiters()
    }

    /// Pulls the adapter out: the host's reads and writes fail and the link disappears. The bus keeps its state.
    public func unplug() {
        let pty = adapter.withLock { adapter -> PseudoTerminal? in
            defer { adapter.terminal = nil }
            return adapter.terminal
        }
        pty?.close()
        emit(["adapter unplugged"])
    }

    /// Plugs the adapter back in at the same link (a fresh pty, adapter state reset as after power-up).
    public func replug() throws(CECEmulatorError) {
        guard let link = adapter.withLock({ $0.stopped ? nil : $0.link }) else { throw .notStarted }
        try start(link: link)
    }

    /// The slave device path while plugged in.
    public var devicePath: String? { adapter.withLock { $0.terminal?.slavePath } }

    // MARK: Host traffic

    /// Writes what `make` returns (computed with the adapter's state) to the host, if plugged in, after the bytes
    /// of earlier calls; the state is not held during the write. A write to an unplugged, broken or unread pty
    /// is dropped (`PseudoTerminal.write` gives up on a host that does not read).
    func writeToHost(_ make: (inout Adapter) -> [UInt8]) {
        writer.withLock { _ in
            let (bytes, terminal) = adapter.withLock { adapter in (make(&adapter), adapter.terminal) }
            guard !bytes.isEmpty, let terminal else { return }
            do { try terminal.write(bytes) } catch {}
        }
    }

    private func received(_ bytes: [UInt8]) {
        var lines: [String] = []
        var resumes: [Resume] = []
        writeToHost { adapter in
            let messages = adapter.decoder.feed(bytes)
            var out: [UInt8] = []
            for message in messages {
                adapter.hostMessages[message.codeByte & 0x3F, default: 0] += 1
                if adapter.tracing { lines.append("host → adapter \(message)\(adapter.answering ? "" : " (ignored)")") }
                guard adapter.answering else { continue }
                out += adapter.handle(message, lines: &lines, resumes: &resumes)
            }
            return out
        }
        for (continuation, frame) in resumes { continuation.resume(returning: frame) }
        emit(lines)
    }

    /// Frames from the bus, in the adapter's receive encoding.
    static func encodeReceived(_ frame: BusFrame) -> [UInt8] {
        var out = AdapterMessage(.frameStart, [frame.header], flags: frame.isPoll ? AdapterCode.eomFlag : 0).encoded
        for (i, byte) in frame.data.enumerated() {
            let last = i == frame.data.count - 1
            out += AdapterMessage(.frameData, [byte], flags: last ? AdapterCode.eomFlag : 0).encoded
        }
        return out
    }

    func sendFromBus(_ action: (inout EmulatedBus) -> [BusFrame]) {
        var frames: [BusFrame] = []
        writeToHost { adapter in
            frames = action(&adapter.bus)
            return frames.flatMap(Self.encodeReceived)
        }
        if trace != nil { emit(frames.map { "bus \($0)" }) }
    }

    // MARK: Helpers

    func emit(_ lines: [String]) {
        guard let trace else { return }
        for line in lines { trace(line) }
    }
}

/// Why the emulator could not start or replug.
public enum CECEmulatorError: Error, Sendable, CustomStringConvertible {
    /// The pseudo-terminal could not be created or linked.
    case pseudoTerminal(PseudoTerminalError)
    /// `replug()` before `start(link:)`, or after `stop()`.
    case notStarted

    public var description: String {
        switch self {
        case .pseudoTerminal(let error): "CEC emulator: \(error)"
        case .notStarted: "CEC emulator: not started"
        }
    }
}
