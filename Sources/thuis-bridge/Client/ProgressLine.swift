import BridgeCore
import FoundationEssentials
internal import Glibc
internal import Synchronization
internal import SystemSupport

/// Shows bridge progress events: on one updating line when stdout is a terminal, one line per event
/// otherwise.
final class ProgressLine: Sendable {
    private let terminal: Bool
    /// Whether an updating line is on the terminal; held while writing, so lines never interleave.
    private let showing = Mutex(false)

    init(terminal: Bool = isatty(1) == 1) { self.terminal = terminal }

    /// Shows `event` if it is inclusion, exclusion, interview or health check progress.
    func show(_ event: JSONValue) {
        guard let text = Self.describe(event) else { return }
        showing.withLock { showing in
            if terminal {
                ClientRunner.standardOutput("\r\u{1B}[K" + text)
                showing = true
            } else {
                ClientRunner.standardOutput(text + "\n")
            }
        }
    }

    /// Ends the updating line.
    func finish() {
        showing.withLock { showing in
            if showing { ClientRunner.standardOutput("\n") }
            showing = false
        }
    }

    /// A human sentence for a progress event, nil for other events.
    static func describe(_ event: JSONValue) -> String? {
        guard case .string(let type)? = event["type"] else { return nil }
        let node =
            event["node"].map { value -> String in
                if case .int(let n) = value { return String(n) }
                return value.serialized
            } ?? "?"
        func text(_ key: String) -> String {
            if case .string(let s)? = event[key] { return s }
            return ""
        }
        switch type {
        case "inclusion_waiting": return "waiting for a device to join: press its inclusion button"
        case "inclusion_node_found": return "device found"
        case "inclusion_adding": return "adding node \(node)"
        case "inclusion_protocol_done": return "node \(node) joined the network"
        case "node_added": return "node \(node) added; interviewing"
        case "interview_progress": return "interviewing node \(node): \(text("stage"))"
        case "interview_completed":
            return "interview of node \(node) complete: \(text("manufacturer")) \(text("product"))"
        case "interview_failed": return "interview of node \(node) stopped at \(text("stage")): \(text("reason"))"
        case "exclusion_waiting": return "waiting for a device to leave: press its inclusion button"
        case "exclusion_node_found": return "device found"
        case "exclusion_removing": return "removing node \(node)"
        case "exclusion_protocol_done": return "node \(node) left the network"
        case "node_removed": return "node \(node) removed from the bridge"
        default: return describeHealthCheck(type, event, node: node)
        }
    }
}
