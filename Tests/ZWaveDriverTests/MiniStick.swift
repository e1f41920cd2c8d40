import Foundation
import SerialPTY
import Synchronization

/// The smallest controller that gets OpenZWave to DriverReady (field guide §5, "minimum set"): ACKs
/// every frame and answers the init chain with an all-zero API mask and a network of just the
/// controller (node 1). Used to test recovery without the full emulator. Can be switched silent.
final class MiniStick: Sendable {
    private let pty: PseudoTerminal
    /// The bytes not yet framed, whether it answers, and the library type it reports.
    private struct State {
        var buffer: [UInt8] = []
        var answering: Bool
        var libraryType: UInt8 = 1
        /// Functions whose answer waits for `release`, and the answer held for each (the latest request's).
        var holding: Set<UInt8> = []
        var held: [UInt8: [UInt8]] = [:]
    }
    private let state: Mutex<State>
    /// Every byte OpenZWave wrote.
    let received = Recorder<UInt8>()

    init(pty: PseudoTerminal, answering: Bool) {
        self.pty = pty
        state = Mutex(State(answering: answering))
        pty.startReading { [weak self] bytes in self?.receive(bytes) }
    }

    /// The Serial API library type GET_VERSION reports (OpenZWave accepts only 1 and 2).
    func setLibraryType(_ type: UInt8) { state.withLock { $0.libraryType = type } }

    func setAnswering(_ on: Bool) { state.withLock { $0.answering = on } }

    /// From now on, a request for `function` is ACKed but its answer waits for `release(function)`.
    func hold(function: UInt8) { state.withLock { _ = $0.holding.insert(function) } }

    /// Sends the answer held for `function` (if a request came) and answers it at once again from now on.
    func release(function: UInt8) {
        let answer = state.withLock { state in
            state.holding.remove(function)
            return state.held.removeValue(forKey: function)
        }
        if let answer { try? pty.write(answer) }
    }

    static func frame(type: UInt8, function: UInt8, payload: [UInt8]) -> [UInt8] {
        let length = UInt8(payload.count + 3)
        var checksum: UInt8 = 0xFF ^ length ^ type ^ function
        for b in payload { checksum ^= b }
        return [0x01, length, type, function] + payload + [checksum]
    }

    private func receive(_ bytes: [UInt8]) {
        received.append(contentsOf: bytes)
        let (on, library, frames) = state.withLock { state in
            state.buffer.append(contentsOf: bytes)
            var frames: [[UInt8]] = []
            while let first = state.buffer.first {
                if first != 0x01 {
                    state.buffer.removeFirst()
                    continue
                }
                guard state.buffer.count >= 2, state.buffer.count >= Int(state.buffer[1]) + 2 else { break }
                let total = Int(state.buffer[1]) + 2
                frames.append(Array(state.buffer[0..<total]))
                state.buffer.removeFirst(total)
            }
            return (state.answering, state.libraryType, frames)
        }
        guard on else { return }
        for frame in frames where frame.count >= 5 {
            try? pty.write([0x06])
            guard let answer = Self.answer(function: frame[3], libraryType: library) else { continue }
            let now = state.withLock { state in
                guard state.holding.contains(frame[3]) else { return true }
                state.held[frame[3]] = answer
                return false
            }
            if now { try? pty.write(answer) }
        }
    }

    private static func answer(function: UInt8, libraryType: UInt8) -> [UInt8]? {
        switch function {
        case 0x15:  // GET_VERSION: "Z-Wave 4.05\0", library type (1: static controller)
            return frame(type: 0x01, function: 0x15, payload: Array("Z-Wave 4.05".utf8) + [0x00, libraryType])
        case 0x20:  // MEMORY_GET_ID: home C0FFEE01, node 1
            return frame(type: 0x01, function: 0x20, payload: [0xC0, 0xFF, 0xEE, 0x01, 0x01])
        case 0x05:  // GET_CONTROLLER_CAPABILITIES
            return frame(type: 0x01, function: 0x05, payload: [0x1C])
        case 0x56:  // GET_SUC_NODE_ID: 1
            return frame(type: 0x01, function: 0x56, payload: [0x01])
        case 0x07:  // SERIAL_API_GET_CAPABILITIES, all-zero function mask
            return frame(
                type: 0x01, function: 0x07,
                payload: [0x01, 0x02, 0x00, 0x86, 0x00, 0x01, 0x00, 0x5A] + [UInt8](repeating: 0, count: 32))
        case 0x02:  // SERIAL_API_GET_INIT_DATA: only node 1
            return frame(
                type: 0x01, function: 0x02,
                payload: [0x05, 0x08, 29, 0x01] + [UInt8](repeating: 0, count: 28) + [0x05, 0x00])
        case 0x06:  // SET_TIMEOUTS
            return frame(type: 0x01, function: 0x06, payload: [0x0F, 0x0A])
        case 0x41:  // GET_NODE_PROTOCOL_INFO (the controller)
            return frame(type: 0x01, function: 0x41, payload: [0xD3, 0x16, 0x01, 0x02, 0x02, 0x01])
        default:
            return nil
        }
    }
}
