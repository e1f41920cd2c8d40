internal import BridgeCore
import FoundationEssentials
internal import Glibc
internal import Synchronization
internal import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The demo's terminal output: the banner and one timestamped line per MQTT message, house action or
/// demo step, written whole (unbuffered, under a lock) so lines from different tasks never interleave.
/// Colours only on a terminal, and never with `NO_COLOR` set.
final class DemoConsole: Sendable {

    /// What a feed line is about; shown in the column after the time.
    enum Kind: Sendable {
        /// Published by the bridge (states, events, inventory).
        case bridge
        /// Sent to the bridge by a client: `/set`, `/get`, bridge requests.
        case command
        /// Something the emulated house did by itself (a button, a remote, a load).
        case house
        /// The demo itself (starting, stopping).
        case demo

        var label: String {
            switch self {
            case .bridge: "     "
            case .command: "» cmd"
            case .house: "house"
            case .demo: "demo "
            }
        }

        var color: String {
            switch self {
            case .bridge: ""
            case .command: "\u{1B}[1;36m"
            case .house: "\u{1B}[33m"
            case .demo: "\u{1B}[2m"
            }
        }
    }

    /// Whether standard output was found closed; held for every write, so lines never interleave.
    private let outputClosed = Mutex(false)
    let colors: Bool
    let isTerminal: Bool

    init() {
        let environment = ProcessInfo.processInfo.environment
        isTerminal = isatty(STDOUT_FILENO) == 1
        colors = isTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }

    /// Writes `text` as it is (plus a newline).
    func say(_ text: String) {
        write(text + "\n")
    }

    /// Writes one timestamped line.
    func line(_ kind: Kind, _ text: String) {
        let body = "\(Self.clock())  \(kind.label)  \(text)"
        write(colors && !kind.color.isEmpty ? kind.color + body + "\u{1B}[0m\n" : body + "\n")
    }

    /// The house is ready: says so, with a reminder of how to drive it (the banner has scrolled away).
    func ready(after elapsed: Duration, hint: [String]) {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        line(
            .demo,
            "ready after \(Bridge.decimal(DeviceState.Measurement(value: seconds, precision: 1))) s: every device is interviewed. Drive it, e.g.:"
        )
        let indent = String(repeating: " ", count: 19)
        write(hint.map { indent + $0 + "\n" }.joined())
    }

    /// On a terminal, moves the cursor back to the start of the line (over an echoed "^C").
    func returnToLineStart() {
        if isTerminal { write("\r") }
    }

    /// Writes a message to stderr (start-up problems).
    func complain(_ text: String) {
        outputClosed.withLock { _ in _ = Self.writeAll(STDERR_FILENO, text + "\n") }
    }

    private func write(_ text: String) {
        outputClosed.withLock { outputClosed in
            // A reader that went away (`demo | head`) only silences the feed; the demo still stops cleanly.
            if !outputClosed, !Self.writeAll(STDOUT_FILENO, text) { outputClosed = true }
        }
    }

    /// write(2) until everything is written; false on an error such as EPIPE.
    private static func writeAll(_ fd: Int32, _ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            bytes = bytes.dropFirst(written)
        }
        return true
    }

    /// The local time as HH:MM:SS.
    static func clock() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return [parts.tm_hour, parts.tm_min, parts.tm_sec].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
    }
}
