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
/// FRAME_START/FRAME_DATA messages. The control API plays the devices' own remotes, unplugs and replugs
/// the adapter, injects raw traffic and records every frame the host transmitted.
public final class CECAdapterEmulator: Sendable {
    /// The adapter, the bus and the recording, shared by the pty reader thread and the control API. Held only
    /// to read or change them, never while writing to the host: a host that does not read must not stop the
    /// emulator's observers (`state`, the waits for frames) or its unplug.
    private let adapter: Mutex<Adapter>
    /// Serialises the writes to the host (the pty reader's answers, the bus frames the control API sends) in the
    /// order their bytes were made; taken before `adapter`, released after the write.
    private let writer = Mutex(())
    private let trace: (@Sendable (String) -> Void)?

    /// A waiter to resume with the frame it waited for, once the lock is released.
    private typealias Resume = (CheckedContinuation<TransmittedFrame?, Never>, TransmittedFrame)

    /// Everything mutable: owned by `adapter`, so only reachable with its lock held.
    private struct Adapter {
        let configuration: CECEmulatorConfiguration
        /// Whether `trace` is set: the lines for it are only made then.
        let tracing: Bool

        var terminal: PseudoTerminal?
        var link: String?
        var stopped = false
        var bus: EmulatedBus

        // Adapter state (reset on replug, except the "EEPROM" settings).
        var decoder = AdapterFrameDecoder()
        var ackMask: UInt16 = 0
        var controlled = false
        var transmitBuffer: [UInt8] = []
        var settings = AdapterSettings()

        // Recording.
        var transmitted: [TransmittedFrame] = []
        /// Host messages received, per message code (the low six bits of the code byte).
        var hostMessages: [UInt8: Int] = [:]
        var waiters: [Int: Waiter] = [:]
        var expiredWaiters: Set<Int> = []
        var nextWaiterID = 0

        init(configuration: CECEmulatorConfiguration, tracing: Bool) {
            self.configuration = configuration
            self.tracing = tracing
            bus = EmulatedBus(configuration: configuration)
        }

        /// Handles one host message; returns the bytes to answer.
        mutating func handle(_ message: AdapterMessage, lines: inout [String], resumes: inout [Resume]) -> [UInt8] {
            let codeByte = message.codeByte & 0x3F
            guard let code = message.code else { return reject(codeByte) }
            let p = message.payload
            func byte(_ default: UInt8) -> UInt8 { p.first ?? `default` }
            func word(_ default: UInt16) -> UInt16 { p.count >= 2 ? UInt16(p[0]) << 8 | UInt16(p[1]) : `default` }
            switch code {
            case .ping, .transmitIdleTime, .transmitLineTimeout, .writeEEPROM, .setActiveSource:
                return accept(code)
            case .firmwareVersion:
                return reply(code, EmulatedBus.word(configuration.firmwareVersion))
            case .getBuildDate:
                let d = configuration.firmwareBuildDate
                return reply(code, [UInt8(d >> 24), UInt8((d >> 16) & 0xFF), UInt8((d >> 8) & 0xFF), UInt8(d & 0xFF)])
            case .getAdapterType: return reply(code, [1])
            case .setControlled:
                controlled = byte(0) != 0
                return accept(code)
            case .getAutoEnabled: return reply(code, [settings.autoEnabled])
            case .setAutoEnabled:
                settings.autoEnabled = byte(settings.autoEnabled)
                return accept(code)
            case .getDefaultLogicalAddress: return reply(code, [settings.defaultLogicalAddress])
            case .setDefaultLogicalAddress:
                settings.defaultLogicalAddress = byte(settings.defaultLogicalAddress)
                return accept(code)
            case .getLogicalAddressMask: return reply(code, EmulatedBus.word(settings.logicalAddressMask))
            case .setLogicalAddressMask:
                settings.logicalAddressMask = word(settings.logicalAddressMask)
                return accept(code)
            case .getPhysicalAddress: return reply(code, EmulatedBus.word(settings.physicalAddress))
            case .setPhysicalAddress:
                settings.physicalAddress = word(settings.physicalAddress)
                return accept(code)
            case .getDeviceType: return reply(code, [settings.deviceType])
            case .setDeviceType:
                settings.deviceType = byte(settings.deviceType)
                return accept(code)
            case .getHDMIVersion: return reply(code, [settings.hdmiVersion])
            case .setHDMIVersion:
                settings.hdmiVersion = byte(settings.hdmiVersion)
                return accept(code)
            case .getOSDName: return reply(code, settings.osdName)
            case .setOSDName:
                settings.osdName = Array(p.prefix(14))
                return accept(code)
            case .getAutoPowerOn: return reply(code, [settings.autoPowerOn])
            case .setAutoPowerOn:
                settings.autoPowerOn = byte(settings.autoPowerOn)
                return accept(code)
            case .setAckMask:
                ackMask = word(ackMask)
                return accept(code)
            case .transmitAckPolarity:
                transmitBuffer = []
                return accept(code)
            case .transmit:
                if let b = p.first, transmitBuffer.count < 17 { transmitBuffer.append(b) }
                return accept(code)
            case .transmitEOM:
                if let b = p.first { transmitBuffer.append(b) }
                let bytes = transmitBuffer
                transmitBuffer = []
                return accept(code) + completeTransmission(bytes, lines: &lines, resumes: &resumes)
            default:
                return reject(codeByte)
            }
        }

        private func accept(_ code: AdapterCode) -> [UInt8] {
            AdapterMessage(.commandAccepted, [code.rawValue]).encoded
        }

        private func reject(_ codeByte: UInt8) -> [UInt8] {
            AdapterMessage(.commandRejected, [codeByte]).encoded
        }

        private func reply(_ code: AdapterCode, _ payload: [UInt8]) -> [UInt8] {
            AdapterMessage(code, payload).encoded
        }

        /// A full frame from the host: record it, answer the result, let the devices react.
        private mutating func completeTransmission(
            _ bytes: [UInt8], lines: inout [String],
            resumes: inout [Resume]
        ) -> [UInt8] {
            guard let frame = BusFrame(bytes: bytes) else {
                return AdapterMessage(.transmitFailedLine).encoded
            }
            let acknowledged = frame.isBroadcast || bus.acknowledges(frame.destination)
            let record = TransmittedFrame(
                frame: frame, time: .now, acknowledged: acknowledged,
                index: transmitted.count)
            transmitted.append(record)
            for (id, waiter) in waiters where record.index >= waiter.since && waiter.predicate(frame) {
                waiters.removeValue(forKey: id)
                resumes.append((waiter.continuation, record))
            }
            var out = AdapterMessage(acknowledged ? .transmitSucceeded : .transmitFailedAck).encoded
            if tracing { lines.append("host tx \(frame) → \(acknowledged ? "ack" : "nack")") }
            guard acknowledged else { return out }
            for reply in bus.deliver(frame) {
                if tracing { lines.append("bus \(reply)") }
                out += CECAdapterEmulator.encodeReceived(reply)
            }
            return out
        }

        /// Resets the adapter as after power-up (the "EEPROM" settings stay).
        mutating func reset() {
            decoder = AdapterFrameDecoder()
            ackMask = 0
            controlled = false
            transmitBuffer = []
        }
    }

    private struct Waiter {
        let since: Int
        let predicate: @Sendable (BusFrame) -> Bool
        let continuation: CheckedContinuation<TransmittedFrame?, Never>
    }

    /// The adapter's persistent settings, as GET_*/SET_* see them.
    private struct AdapterSettings {
        var autoEnabled: UInt8 = 0
        var defaultLogicalAddress: UInt8 = 1
        var logicalAddressMask: UInt16 = 0x0002
        var physicalAddress: UInt16 = 0x1000
        var deviceType: UInt8 = 1
        var hdmiVersion: UInt8 = 5
        var osdName: [UInt8] = Array("CECTester".utf8)
        var autoPowerOn: UInt8 = 0
    }

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

    // MARK: Remote controls

    /// The TV's own remote: on just wakes it; off puts it in standby and broadcasts `0F:36`.
    public func tvRemotePower(on: Bool) {
        sendFromBus { bus in bus.tvRemotePower(on: on) }
    }

    /// The TV's own remote switches input: broadcasts Routing Change `0F:80:<old>:<new>`, and the device at
    /// the new address (if emulated) answers Active Source.
    public func tvRemoteSelectInput(_ physicalAddress: UInt16) {
        sendFromBus { bus in bus.tvRemoteSelectInput(physicalAddress) }
    }

    /// The audio system's own remote sets the volume (clamped to 0-100); it reports Audio Status.
    public func avrRemoteSetVolume(_ volume: Int) {
        sendFromBus { bus in bus.avrRemote(volume: volume, muted: nil) }
    }

    /// The audio system's own remote mutes or unmutes; it reports Audio Status.
    public func avrRemoteMute(_ muted: Bool) {
        sendFromBus { bus in bus.avrRemote(volume: nil, muted: muted) }
    }

    /// Adds a device to or removes it from the bus (LA 4 playback, LA 5 audio system; the TV stays). An
    /// absent device does not acknowledge frames, so polls to it fail.
    public func setDevicePresent(logicalAddress: UInt8, _ present: Bool) {
        adapter.withLock {
            guard logicalAddress != EmulatedBus.tv else { return }
            $0.bus.devices[logicalAddress]?.present = present
        }
    }

    /// The TV leaves the next `count` Give Device Power Status requests unanswered.
    public func dropTVPowerAnswers(_ count: Int) {
        adapter.withLock { $0.bus.tvPowerAnswersToDrop = max(0, count) }
    }

    // MARK: Injection

    /// Sends a frame to the host as if it appeared on the bus (FRAME_START/FRAME_DATA), without the
    /// emulated devices seeing it. An empty `bytes` sends nothing.
    public func injectBusFrame(bytes: [UInt8]) {
        guard let frame = BusFrame(bytes: bytes) else { return }
        let out = Self.encodeReceived(frame)
        writeToHost { _ in out }
        emit(["inject bus \(frame)"])
    }

    /// Writes raw bytes to the host (for malformed traffic: broken framing, unknown codes, lone flags).
    public func injectSerialBytes(_ bytes: [UInt8]) {
        writeToHost { _ in bytes }
    }

    /// Writes what `make` returns (computed with the adapter's state) to the host, if plugged in, after the bytes
    /// of earlier calls; the state is not held during the write. A write to an unplugged, broken or unread pty
    /// is dropped (`PseudoTerminal.write` gives up on a host that does not read).
    private func writeToHost(_ make: (inout Adapter) -> [UInt8]) {
        writer.withLock { _ in
            let (bytes, terminal) = adapter.withLock { adapter in (make(&adapter), adapter.terminal) }
            guard !bytes.isEmpty, let terminal else { return }
            do { try terminal.write(bytes) } catch {}
        }
    }

    // MARK: Observation

    /// A snapshot of the bus and adapter state.
    public var state: CECEmulatorState {
        adapter.withLock { adapter in
            let bus = adapter.bus
            return CECEmulatorState(
                tvPoweredOn: bus.devices[EmulatedBus.tv]?.powered ?? false,
                tvInput: bus.tvInput, volume: bus.volume, muted: bus.muted, systemAudioMode: bus.systemAudioMode,
                audioSystemPoweredOn: bus.devices[EmulatedBus.audioSystem]?.powered ?? false,
                playbackPoweredOn: bus.devices[EmulatedBus.playback]?.powered ?? false,
                ackMask: adapter.ackMask, controlled: adapter.controlled, pluggedIn: adapter.terminal != nil)
        }
    }

    /// Every frame the host transmitted so far, oldest first.
    public var transmittedFrames: [TransmittedFrame] { adapter.withLock { $0.transmitted } }

    /// How many frames the host transmitted so far: pass it as `since` to wait only for later ones.
    public var transmittedCount: Int { adapter.withLock { $0.transmitted.count } }

    /// How many messages with this code the host has sent to the adapter (e.g. `.ping`).
    public func hostMessageCount(_ code: AdapterCode) -> Int {
        adapter.withLock { $0.hostMessages[code.rawValue, default: 0] }
    }

    /// Waits until the host transmits (or has transmitted, at index ≥ `since`) a frame matching `predicate`.
    /// Returns nil after `timeout` or when the emulator stops.
    public func waitForTransmitted(
        since: Int = 0, timeout: Duration,
        where predicate: @escaping @Sendable (BusFrame) -> Bool
    ) async -> TransmittedFrame? {
        let id = adapter.withLock { adapter -> Int in
            adapter.nextWaiterID += 1
            return adapter.nextWaiterID
        }
        return await withTaskGroup(of: TransmittedFrame?.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    self.addWaiter(id: id, since: since, predicate: predicate, continuation: continuation)
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                self.expireWaiter(id: id)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            self.expireWaiter(id: id)
            await group.waitForAll()
            self.forgetWaiter(id: id)
            return first
        }
    }

    /// Both children are done: nothing will register `id` any more.
    private func forgetWaiter(id: Int) {
        adapter.withLock { _ = $0.expiredWaiters.remove(id) }
    }

    private func addWaiter(
        id: Int, since: Int, predicate: @escaping @Sendable (BusFrame) -> Bool,
        continuation: CheckedContinuation<TransmittedFrame?, Never>
    ) {
        let immediate: TransmittedFrame?? = adapter.withLock { adapter in
            if adapter.expiredWaiters.remove(id) != nil { return .some(nil) }
            if let hit = adapter.transmitted.dropFirst(max(0, since)).first(where: { predicate($0.frame) }) {
                return .some(hit)
            }
            if adapter.stopped { return .some(nil) }
            adapter.waiters[id] = Waiter(since: since, predicate: predicate, continuation: continuation)
            return nil
        }
        if let immediate { continuation.resume(returning: immediate) }
    }

    private func expireWaiter(id: Int) {
        let waiter = adapter.withLock { adapter -> Waiter? in
            if let waiter = adapter.waiters.removeValue(forKey: id) { return waiter }
            // Not registered yet (or already resumed): remember, so a late registration returns at once.
            adapter.expiredWaiters.insert(id)
            return nil
        }
        waiter?.continuation.resume(returning: nil)
    }

    private func failAllWaiters() {
        let all = adapter.withLock { adapter -> [Waiter] in
            defer { adapter.waiters.removeAll() }
            return Array(adapter.waiters.values)
        }
        for waiter in all { waiter.continuation.resume(returning: nil) }
    }

    // MARK: Host traffic

    private func received(_ bytes: [UInt8]) {
        var lines: [String] = []
        var resumes: [Resume] = []
        writeToHost { adapter in
            let messages = adapter.decoder.feed(bytes)
            var out: [UInt8] = []
            for message in messages {
                adapter.hostMessages[message.codeByte & 0x3F, default: 0] += 1
                if adapter.tracing { lines.append("host → adapter \(message)") }
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

    private func sendFromBus(_ action: (inout EmulatedBus) -> [BusFrame]) {
        var frames: [BusFrame] = []
        writeToHost { adapter in
            frames = action(&adapter.bus)
            return frames.flatMap(Self.encodeReceived)
        }
        if trace != nil { emit(frames.map { "bus \($0)" }) }
    }

    // MARK: Helpers

    private func emit(_ lines: [String]) {
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
