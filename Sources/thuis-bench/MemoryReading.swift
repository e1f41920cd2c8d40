import Foundation

/// A process's memory from /proc/<pid>/smaps_rollup, in kB: `Rss` (every resident page it maps), `Pss` (each
/// shared page divided by the number of processes that map it: what the process adds to the machine) and
/// `Anonymous` (heap, stacks: pages no file backs, its own). Nothing of the bridge is swapped or paged out on
/// purpose, so RSS is what a user sees in `top`.
struct MemoryReading: Codable, Sendable {
    var rssKB: Int
    var pssKB: Int
    var anonymousKB: Int

    init(rssKB: Int, pssKB: Int, anonymousKB: Int) {
        self.rssKB = rssKB
        self.pssKB = pssKB
        self.anonymousKB = anonymousKB
    }

    init?(pid: Int32) {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8) else { return nil }
        var values: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2, parts[0].hasSuffix(":"), let value = Int(parts[1]) {
                values[String(parts[0].dropLast())] = value
            }
        }
        guard let rss = values["Rss"], let pss = values["Pss"], let anonymous = values["Anonymous"] else { return nil }
        self.init(rssKB: rss, pssKB: pss, anonymousKB: anonymous)
    }

    /// `RSS 20.1 MB (PSS 12.3, anonymous 4.8)`.
    var summary: String {
        "RSS \(megabytes(rssKB)) (PSS \(String(format: "%.1f", Double(pssKB) / 1024)), anonymous "
            + "\(String(format: "%.1f", Double(anonymousKB) / 1024)))"
    }

    /// The three figures under `prefix` (`<prefix>_rss_kb`, `_pss_kb`, `_anonymous_kb`) for the JSON's numbers.
    func numbers(_ prefix: String) -> [String: Double] {
        [
            "\(prefix)_rss_kb": Double(rssKB), "\(prefix)_pss_kb": Double(pssKB),
            "\(prefix)_anonymous_kb": Double(anonymousKB),
        ]
    }
}

extension ScenarioResult {
    /// A memory row: RSS measured against `goalMB` (when given), PSS and anonymous beside it; the three figures
    /// in the JSON under `key`.
    mutating func memoryRow(
        _ metric: String, _ reading: MemoryReading?, key: String, baseline: String = "", goalMB: Double? = nil
    ) {
        row(
            metric, reading.map { megabytes($0.rssKB) } ?? "n/a", baseline: baseline,
            comparison: reading.map {
                "PSS \(megabytes($0.pssKB)), anonymous \(megabytes($0.anonymousKB))"
            } ?? "process gone",
            goal: goalMB.map { String(format: "RSS ≤ %.0f MB", $0) } ?? "",
            met: goalMB.flatMap { goal in reading.map { Double($0.rssKB) <= goal * 1024 } })
        if let reading { numbers.merge(reading.numbers(key)) { $1 } }
    }
}
