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

/// One thing wrong with a devices.toml: where it is and what is wrong.
public struct ConfigurationProblem: Sendable, Hashable, CustomStringConvertible {
    /// Where in the document: `mqtt.port`, `zwave.device[1].room`, `cec.device[0].inputs.appletv`;
    /// empty for problems of the whole file (syntax errors, an unreadable file).
    public let keyPath: String
    /// What is wrong, e.g. `must match [A-Za-z0-9_-]+ (got "living room")`.
    public let message: String
    /// The 1-based line, when known.
    public let line: Int?
    /// The 1-based column, known for syntax errors.
    public let column: Int?

    public init(keyPath: String, message: String, line: Int? = nil, column: Int? = nil) {
        self.keyPath = keyPath
        self.message = message
        self.line = line
        self.column = column
    }

    /// `12: zwave.device[1].room: must match ...` (without the file name).
    public var description: String { formatted(source: nil) }

    /// `devices.toml:12: zwave.device[1].room: must match ...`; `devices.toml:3:7: <syntax error>`;
    /// `devices.toml: <problem without a line>`.
    public func formatted(source: String?) -> String {
        var location = source ?? ""
        if let line {
            location += location.isEmpty ? "\(line)" : ":\(line)"
            if let column { location += ":\(column)" }
        }
        return ([location, keyPath, message].filter { !$0.isEmpty }).joined(separator: ": ")
    }
}
