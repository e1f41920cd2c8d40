internal import BridgeCore
import FoundationEssentials
internal import SystemSupport

/// Turns an MQTT message into one readable feed line: the topic in a column, the payload shortened
/// (JSON events become `type key=value…`, the inventory a device count), commands marked as such.
struct DemoFeedFormatter: Sendable {
    /// The topic prefix (`Thuis`).
    let prefix: String
    /// Width of the topic column.
    var topicWidth = 46
    /// Longest payload shown; longer ones end in "…".
    var payloadLimit = 72

    /// Whether a message is a command to the bridge (`…/set`, `…/get`, `<prefix>/bridge/<name>/request/…`).
    func isCommand(topic: String) -> Bool {
        topic.hasSuffix("/set") || topic.hasSuffix("/get")
            || topic.hasPrefix("\(prefix)/bridge/") && topic.contains("/request/")
    }

    /// The kind and text of the feed line for a message.
    func format(topic: String, payload: [UInt8], retained: Bool) -> (kind: DemoConsole.Kind, text: String) {
        let text = String(decoding: payload, as: UTF8.self)
        let shown = payload.isEmpty ? "(empty)" : summary(topic: topic, text: text)
        let padded =
            topic.count < topicWidth ? topic + String(repeating: " ", count: topicWidth - topic.count) : topic + " "
        let line = padded + shown + (retained ? "  (retained)" : "")
        return (isCommand(topic: topic) ? .command : .bridge, line)
    }

    /// A short rendering of a payload: JSON objects as `type key=value …`, JSON arrays as a count.
    func summary(topic: String, text: String) -> String {
        let trimmed = text.trimmingWhitespace()
        guard trimmed.hasPrefix("{") || trimmed.hasPrefix("["), let json = try? JSONValue.parse(Array(trimmed.utf8))
        else { return shorten(text) }
        if case .array(let array) = json {
            return topic.hasSuffix("/devices") ? Self.inventory(array) : "[\(array.count) items]"
        }
        guard case .object(let members) = json else { return shorten(text) }
        var parts: [String] = []
        if case .string(let type)? = json["type"] { parts.append(type) }
        for (key, value) in members.sorted(by: { $0.0 < $1.0 }) where key != "type" {
            guard let value = Self.scalar(value) else { continue }
            parts.append("\(key)=\(value)")
        }
        return shorten(parts.joined(separator: " "))
    }

    /// The bridge's inventory as counts: `inventory: 14 devices, Z-Wave 13 (13 interviewed), CEC 1`.
    static func inventory(_ entries: [JSONValue]) -> String {
        let counts = inventoryCounts(entries)
        return
            "inventory: \(entries.count) devices, Z-Wave \(counts.zwave) (\(counts.interviewed) interviewed), CEC \(counts.cec)"
    }

    /// Z-Wave entries, those whose interview is complete, and CEC entries of an inventory JSON array.
    static func inventoryCounts(_ entries: [JSONValue]) -> (zwave: Int, interviewed: Int, cec: Int) {
        let zwave = entries.filter { $0["adapter"] == .string("zwave") }
        let interviewed = zwave.filter { $0["interview_stage"] == .string("Complete") }.count
        return (zwave.count, interviewed, entries.filter { $0["adapter"] == .string("cec") }.count)
    }

    /// What makes an inventory worth showing again: its size and whether every interview is done (the
    /// bridge republishes it at every interview step).
    static func inventoryKey(_ payload: [UInt8]) -> String {
        guard case .array(let entries)? = try? JSONValue.parse(payload) else {
            return String(decoding: payload, as: UTF8.self)
        }
        let counts = inventoryCounts(entries)
        return "\(entries.count) \(counts.interviewed == counts.zwave)"
    }

    /// Whether an inventory payload says every Z-Wave device has finished its interview.
    static func allInterviewed(_ payload: [UInt8]) -> Bool {
        guard case .array(let entries)? = try? JSONValue.parse(payload) else { return false }
        let counts = inventoryCounts(entries)
        return counts.interviewed == counts.zwave
    }

    private func shorten(_ text: String) -> String {
        let single = String(text.map { $0 == "\n" ? " " : $0 })
        return single.count <= payloadLimit ? single : String(single.prefix(payloadLimit - 1)) + "…"
    }

    /// A JSON scalar as text; nil for objects and arrays (left out of the summary).
    private static func scalar(_ value: JSONValue) -> String? {
        switch value {
        case .string(let string): string.contains(" ") ? "\"\(string)\"" : string
        case .int, .double, .bool: value.serialized
        case .null, .array, .object: nil
        }
    }
}
