import BridgeCore

extension ProgressLine {
    /// A human sentence for a `health_check_*` event, nil for other events.
    static func describeHealthCheck(_ type: String, _ event: JSONValue, node: String) -> String? {
        func number(_ key: String) -> String {
            switch event[key] {
            case .int(let n)?: String(n)
            case .double(let d)?: String(d)
            default: "-"
            }
        }
        switch type {
        case "health_check_started":
            guard case .array(let nodes)? = event["nodes"] else { return nil }
            return "health check of \(nodes.count) node(s), \(number("frames")) frame(s) each"
        case "health_check_frame":
            let outcome = event["acknowledged"] == .bool(true) ? "acknowledged in \(number("rtt_ms")) ms" : "failed"
            return "node \(node): frame \(number("frame"))/\(number("of")) \(outcome)"
        case "health_check_node":
            if event["status"] == .string("asleep") { return "node \(node): asleep, not tested" }
            return
                "node \(node): \(number("acknowledged"))/\(number("sent")) acknowledged, rating \(number("rating"))/10"
        default:
            return nil
        }
    }
}
