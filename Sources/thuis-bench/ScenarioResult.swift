import Foundation

/// One scenario's outcome: table rows (measured vs. baseline vs. goal), raw numbers for the JSON, notes.
struct ScenarioResult: Codable, Sendable {
    struct Row: Codable, Sendable {
        var metric: String
        var measured: String
        var baseline: String
        var comparison: String
        var goal: String
        /// Whether the goal is met (nil when the row has no goal).
        var met: Bool?
    }

    var name: String
    var rows: [Row] = []
    var numbers: [String: Double] = [:]
    var latencies: [String: LatencySummary] = [:]
    var notes: [String] = []

    init(name: String) { self.name = name }

    /// A scenario that did not complete: its name and the error in a note (`could not start: …` or `failed: …`).
    static func failed(_ name: String, _ error: any Error, stage: String = "failed") -> ScenarioResult {
        var result = ScenarioResult(name: name)
        result.notes.append("\(stage): \(String(describing: error).prefix(300))")
        return result
    }

    mutating func row(
        _ metric: String, _ measured: String, baseline: String = "", comparison: String = "",
        goal: String = "", met: Bool? = nil
    ) {
        rows.append(
            Row(metric: metric, measured: measured, baseline: baseline, comparison: comparison, goal: goal, met: met))
    }
}

/// Millisecond formatting for the table.
func ms(_ value: Double) -> String {
    value.isFinite ? String(format: value < 10 ? "%.3f ms" : "%.1f ms", value) : "n/a"
}

func seconds(_ value: Double) -> String { value.isFinite ? String(format: "%.2f s", value) : "n/a" }

func megabytes(_ kilobytes: Int?) -> String {
    guard let kilobytes else { return "n/a" }
    return String(format: "%.1f MB", Double(kilobytes) / 1024)
}
