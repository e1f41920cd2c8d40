import ArgumentParser
import Foundation

/// `thuis-bench report <bench.json>`: the Markdown results table of a run, from the JSON `thuis-bench --json` wrote;
/// to standard output, or with `--update <file>` in place of what stands between the file's two marker lines.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Write the Markdown results table of a run from its JSON.")

    static let begin = "<!-- bench-table:begin -->"
    static let end = "<!-- bench-table:end -->"

    @Argument(help: "The JSON written by `thuis-bench --json`.")
    var json: String

    @Option(
        help: ArgumentHelp(
            "Replace the text between the marker lines of this file instead of printing the table.",
            discussion: "The markers are \(ReportCommand.begin) and \(ReportCommand.end), each on a line of its own."))
    var update: String?

    func run() throws {
        let report = try BenchReport.read(json: json)
        let table = report.markdown
        guard let update else {
            print(table, terminator: "")
            return
        }
        let text = try String(contentsOfFile: update, encoding: .utf8)
        guard let updated = Self.replacing(in: text, with: table) else {
            throw BenchError("\(update) has no line \(Self.begin) followed by a line \(Self.end)")
        }
        try updated.write(toFile: update, atomically: true, encoding: .utf8)
    }

    /// `text` with the lines between the begin and end markers replaced by `table`; nil without the markers.
    static func replacing(in text: String, with table: String) -> String? {
        var lines = text.components(separatedBy: "\n")
        guard let first = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == begin }),
            let last = lines[(first + 1)...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == end })
        else { return nil }
        var body = table.components(separatedBy: "\n")
        if body.last == "" { body.removeLast() }
        lines.replaceSubrange((first + 1)..<last, with: body)
        return lines.joined(separator: "\n")
    }
}

extension BenchReport {
    static func read(json path: String) throws -> BenchReport {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try decoder.decode(BenchReport.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The run as Markdown: what ran where, one table of every scenario's rows (the scenario named on its first
    /// row), and the correctness verdict. Notes stay in the JSON and the printed table.
    var markdown: String {
        func cell(_ text: String) -> String {
            text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
                .trimmingCharacters(in: .whitespaces)
        }
        var lines = [
            "Run \(date), \(String(format: "%.0f", durationSeconds)) s, on \(machine.summary):", "",
            "    \(command)", "",
            "| scenario | metric | thuis-bridge | baseline (same run) | comparison | goal | |",
            "|---|---|---|---|---|---|---|",
        ]
        for result in results {
            for (index, row) in result.rows.enumerated() {
                let verdict = row.met.map { $0 ? "met" : "**missed**" } ?? ""
                let cells = [
                    index == 0 ? result.name : "", row.metric, row.measured, row.baseline, row.comparison, row.goal,
                    verdict,
                ].map(cell)
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
            if result.rows.isEmpty {
                let problem = result.notes.first ?? "no figures"
                lines.append("| \(cell(result.name)) | \(cell(problem)) | | | | | |")
            }
        }
        let checks = results.reduce(0) { $0 + $1.checks.count }
        let failures = correctnessFailures
        lines.append("")
        lines.append(
            failures.isEmpty
                ? "Correctness: all \(checks) checks passed."
                : "Correctness: \(failures.count) of \(checks) checks failed: "
                    + failures.map(cell).joined(separator: "; ") + ".")
        return lines.joined(separator: "\n") + "\n"
    }
}
