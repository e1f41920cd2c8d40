public import SerialPTY

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
