import Logging

/// A swift-log handler that records every line (level, source, message) for assertions.
struct CapturingLogHandler: LogHandler {
    struct Line: Sendable {
        let level: Logger.Level
        let source: String
        let message: String
    }

    let lines: Recorder<Line>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level

    init(lines: Recorder<Line>, level: Logger.Level) {
        self.lines = lines
        self.logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append(Line(level: event.level, source: event.source, message: "\(event.message)"))
    }
}
