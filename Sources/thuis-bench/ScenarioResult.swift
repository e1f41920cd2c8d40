import Foundation

/// One scenario's outcome: table rows (measured vs. baseline vs. goal), raw numbers for the JSON, notes, and its
/// correctness checks (a lost command, a wrong final level, a state never published, a scenario that did not
/// complete): any failed check makes the benchmark exit with status 1. Timings and memory are rows, never checks.
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

    /// A correctness check: `passed`, with what was found (`detail`).
    struct Check: Codable, Sendable {
        var name: String
        var passed: Bool
        var detail: String
    }

    var name: String
    var rows: [Row] = []
    var numbers: [String: Double] = [:]
    var latencies: [String: LatencySummary] = [:]
    var notes: [String] = []
    var checks: [Check] = []

    init(name: String) { self.name = name }

    /// The scenario's number, the start of its name (`1-3 (…)` of a failed session counts as 1).
    var number: Int { Int(name.prefix { $0.isNumber }) ?? .max }

    /// A scenario that did not complete: its name and the error in a note (`could not start: …` or `failed: …`).
    static func failed(_ name: String, _ error: any Error, stage: String = "failed") -> ScenarioResult {
        var result = ScenarioResult(name: name)
        result.notes.append("\(stage): \(String(describing: error).prefix(300))")
        result.check("the scenario ran to its end", false, stage)
        return result
    }

    mutating func row(
        _ metric: String, _ measured: String, baseline: String = "", comparison: String = "",
        goal: String = "", met: Bool? = nil
    ) {
        rows.append(
            Row(metric: metric, measured: measured, baseline: baseline, comparison: comparison, goal: goal, met: met))
    }

    mutating func check(_ name: String, _ passed: Bool, _ detail: String = "") {
        checks.append(Check(name: name, passed: passed, detail: detail))
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
