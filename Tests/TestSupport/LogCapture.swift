import Foundation
public import Logging
import Synchronization

/// Collects every log line (message and metadata) of the loggers it makes, for assertions such as "the
/// password never appears in the logs".
public final class LogCapture: Sendable {
    private let entries = Mutex<[String]>([])

    public init() {}

    /// A logger at `level` that records into this capture.
    public func logger(label: String = "test", level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: label) { _ in Handler(capture: self) }
        logger.logLevel = level
        return logger
    }

    /// Every recorded line: `level message key=value...`.
    public var lines: [String] { entries.withLock { $0 } }

    fileprivate func append(_ line: String) {
        entries.withLock { $0.append(line) }
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            capture.append("\(event.level) \(event.message) \(fields)")
        }
    }
}
