/// Collects the problems found while reading one devices.toml, each with its line when the text shows it.
/// Lives only for one ``ConfigurationLoader/parse(text:source:)`` call, on one thread.
final class ConfigurationDiagnostics {
    private(set) var problems: [ConfigurationProblem] = []
    private let lines: SourceLineIndex

    init(text: String) {
        lines = SourceLineIndex(text: text)
    }

    /// Records a problem at `keyPath`.
    func report(_ keyPath: String, _ message: String) {
        problems.append(ConfigurationProblem(keyPath: keyPath, message: message, line: lines.line(of: keyPath)))
    }

    /// Records a problem whose position is known (syntax errors).
    func report(_ problem: ConfigurationProblem) {
        problems.append(problem)
    }

    /// The problems in document order (problems without a line last), ties in the order found.
    var sortedProblems: [ConfigurationProblem] {
        problems.enumerated().sorted { lhs, rhs in
            let left = (lhs.element.line ?? .max, lhs.element.column ?? 0, lhs.offset)
            let right = (rhs.element.line ?? .max, rhs.element.column ?? 0, rhs.offset)
            return left < right
        }.map(\.element)
    }
}
