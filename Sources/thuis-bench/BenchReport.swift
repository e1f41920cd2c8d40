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
                lines.append(
                    zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                        .joined(separator: " | ").trimmingCharacters(in: .whitespaces))
            }
            for note in result.notes { lines.append("note: \(note)") }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    func write(json path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}
