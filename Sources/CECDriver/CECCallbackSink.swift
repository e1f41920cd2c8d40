import BridgeCore
import FoundationEssentials
internal import Synchronization
internal import SystemSupport

/// The object libcec's callbacks reach through `callbackParam`: it copies what they carry into `CECEvent`s
/// and yields them into the driver's event stream (unbounded: nothing is dropped). Runs on libcec's callback thread; never blocks, never
/// calls libcec.
final class CECCallbackSink: Sendable {
    /// What the callbacks observed, read by the driver.
    private struct State {
        var lost = false
        /// The latest Report Power Status per initiator, with a sequence number.
        var powerReports: [LogicalAddress: (sequence: Int, status: PowerStatus)] = [:]
        var powerSequence = 0
        /// When the last frame from the bus arrived: proof that the adapter is alive.
        var lastFrame: ContinuousClock.Instant?
        /// The driver's health watch, woken when CONNECTION_LOST arrives.
        var wakeups: Wakeups?
    }

    private let continuation: AsyncStream<CECEvent>.Continuation
    private let logLevels: CECLogLevel
    private let state = Mutex(State())

    init(continuation: AsyncStream<CECEvent>.Continuation, logLevels: CECLogLevel) {
        self.continuation = continuation
        self.logLevels = logLevels
    }

    func yield(_ event: CECEvent) {
        continuation.yield(event)
    }

    /// Whether CONNECTION_LOST arrived since the last `resetLost()`.
    var connectionLost: Bool { state.withLock { $0.lost } }

    func resetLost() { state.withLock { $0.lost = false } }

    func finish() {
        continuation.finish()
    }

    // MARK: From the callbacks (libcec's thread)

    func log(level: Int32, message: String) {
        guard logLevels.contains(CECLogLevel(rawValue: level)) else { return }
        continuation.yield(.log(CECLogLevel(rawValue: level), message))
    }

    func wantsLog(level: Int32) -> Bool { logLevels.contains(CECLogLevel(rawValue: level)) }

    func alert(_ raw: UInt32) {
        let alert = CECAlert(rawValue: raw)
        if alert == .connectionLost {
            let wakeups = state.withLock { state in
                state.lost = true
                return state.wakeups
            }
            wakeups?.wake()
        }
        continuation.yield(.alert(alert))
    }

    /// Who to wake when CONNECTION_LOST arrives (the driver's health watch), or nil.
    func setWakeups(_ wakeups: Wakeups?) { state.withLock { $0.wakeups = wakeups } }

    func keyPress(code: UInt8, duration: Int) {
        continuation.yield(.keyPress(code: code, duration: duration))
    }

    func sourceActivated(_ address: LogicalAddress, active: Bool) {
        continuation.yield(.sourceActivated(address, active))
    }

    func received(_ frame: CECFrame) {
        let event = Self.typedEvent(for: frame)
        let now = ContinuousClock.now
        state.withLock { state in
            state.lastFrame = now
            if case .powerStatus(let address, let status) = event {
                state.powerSequence += 1
                state.powerReports[address] = (state.powerSequence, status)
            }
        }
        continuation.yield(.frame(frame))
        guard let event else { return }
        continuation.yield(event)
    }

    /// When the last frame arrived from the bus, if any did.
    var lastFrameReceived: ContinuousClock.Instant? { state.withLock { $0.lastFrame } }

    /// The sequence number of the latest power report (from anyone).
    var latestPowerSequence: Int { state.withLock { $0.powerSequence } }

    /// The power report from `address` newer than `sequence`, if one arrived.
    func powerReport(from address: LogicalAddress, after sequence: Int) -> PowerStatus? {
        state.withLock { state in
            guard let report = state.powerReports[address], report.sequence > sequence else { return nil }
            return report.status
        }
    }

    /// The typed event a frame stands for, if any.
    static func typedEvent(for frame: CECFrame) -> CECEvent? {
        guard let opcode = frame.opcode else { return nil }
        let p = frame.parameters
        let from = frame.initiator
        switch opcode {
        case 0x90:
            guard let status = p.first else { return nil }
            return .powerStatus(from, PowerStatus(cecValue: UInt32(status)))
        case 0x36:
            return .standby(from: from)
        case 0x04, 0x0D:
            return .imageViewOn(from: from, to: frame.destination)
        case 0x82:
            return frame.word(at: 0).map { .activeSource(PhysicalAddress(rawValue: $0), from: from) }
        case 0x86:
            return frame.word(at: 0).map { .streamPath(PhysicalAddress(rawValue: $0), from: from) }
        case 0x80:
            guard let old = frame.word(at: 0), let new = frame.word(at: 2) else { return nil }
            return .routingChange(from: PhysicalAddress(rawValue: old), to: PhysicalAddress(rawValue: new))
        case 0x81:
            return frame.word(at: 0).map { .routingInformation(PhysicalAddress(rawValue: $0)) }
        case 0x7A:
            return p.first.map { .audioStatus(AudioStatus(cecByte: $0)) }
        case 0x72, 0x7E:
            return p.first.map { .systemAudioMode($0 != 0) }
        case 0x84:
            return frame.word(at: 0).map { .physicalAddress(from, PhysicalAddress(rawValue: $0)) }
        case 0x87:
            guard p.count >= 3 else { return nil }
            return .vendorID(from, UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2]))
        case 0x47:
            let printable = p.filter { $0 >= 0x20 && $0 < 0x7F }
            return .osdName(from, String(decoding: printable, as: UTF8.self))
        default:
            return nil
        }
    }
}
