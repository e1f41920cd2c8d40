import Foundation

/// The machine the run happened on: cores, CPU model (/proc/cpuinfo), kernel, load average at start.
struct Machine: Codable, Sendable {
    var cores: Int
    var cpuModel: String
    var kernel: String
    var loadAverage: String

    static func current() -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
            ?? "unknown"
        var name = utsname()
        uname(&name)
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let load = ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "")
            .split(separator: " ").prefix(3).joined(separator: " ")
        return Machine(
            cores: ProcessInfo.processInfo.activeProcessorCount, cpuModel: model,
            kernel: "Linux \(release)", loadAverage: load)
    }

    var summary: String { "\(cores) cores, \(cpuModel), \(kernel), load \(loadAverage) at start" }
}
