import Foundation

/// The whole run: machine, time, command and every scenario's result; rendered as a table or JSON.
struct BenchReport: Codable, Sendable {
    var machine: Machine
    var date: String
    var durationSeconds: Double
    var command: String
    var results: [ScenarioResult]

    var table: String {
        var lines = [
            "thuis-bench \(date), \(String(format: "%.0f", durationSeconds)) s",
            "machine: \(machine.summary)", "",
        ]
        let header = ["metric", "thuis-bridge", "baseline", "comparison", "goal", ""]
        for result in results {
            lines.append("## \(result.name)")
            let rows =
                [header]
                + result.rows.map { row in
                    [
                        row.metric, row.measured, row.baseline, row.comparison, row.goal,
                        row.met.map { $0 ? "ok" : "MISSED" } ?? "",
                    ]
                }
            let widths = (0..<header.count).map { column in rows.map { $0[column].count }.max() ?? 0 }
            for row in rows {
                // Trailing padding only: a metric's leading spaces mark it as a part of the row above.
                let line = zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                    .joined(separator: " | ")
                lines.append(String(line.reversed().drop { $0 == " " }.reversed()))
            }
            for note in result.notes { lines.append("note: \(note)") }
            if !result.checks.isEmpty {
                let passed = result.checks.filter(\.passed).count
                lines.append("correctness checks: \(passed) of \(result.checks.count) ok")
            }
            for check in result.checks where !check.passed {
                lines.append("FAILED: \(check.name)" + (check.detail.isEmpty ? "" : " (\(check.detail))"))
            }
            lines.append("")
        }
        let checks = results.reduce(0) { $0 + $1.checks.count }
        let failures = correctnessFailures
        lines.append(
            failures.isEmpty
                ? "correctness: all \(checks) checks passed"
                : "correctness: \(failures.count) of \(checks) checks FAILED (exit status 1):\n"
                    + failures.map { "- \($0)" }.joined(separator: "\n"))
        return lines.joined(separator: "\n")
    }

    /// The failed correctness checks, each as `scenario: check (detail)`; the benchmark exits with status 1 when
    /// there is any. Only checks count: a missed timing or memory goal (a row's `met`) never does.
    var correctnessFailures: [String] {
        results.flatMap { result in
            result.checks.filter { !$0.passed }.map { check in
                "\(result.name): \(check.name)" + (check.detail.isEmpty ? "" : " (\(check.detail))")
            }
        }
    }

    func write(json path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}
