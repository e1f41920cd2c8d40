/// A devices.toml that cannot be used, with every problem found in it.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file name (or other source name) problems are reported against.
    public let source: String
    /// Every problem, in document order where lines are known.
    public let problems: [ConfigurationProblem]

    public init(source: String, problems: [ConfigurationProblem]) {
        self.source = source
        self.problems = problems
    }

    /// One problem per line: `devices.toml:12: zwave.device[1].room: must match [A-Za-z0-9_-]+ (got "living room")`.
    public var description: String {
        problems.map { $0.formatted(source: source) }.joined(separator: "\n")
    }
}
