import FoundationEssentials
internal import Glibc
import Logging
internal import Synchronization
internal import SystemSupport

/// A swift-log handler that appends lines to a file (the demo's `bridge.log`), so the bridge's own logs
/// stay out of the feed. Lines look like `StreamLogHandler`'s.
struct DemoFileLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    let label: String
    let file: DemoLogFile

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let rendered =
            all.isEmpty
            ? "" : " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let stamp = Timestamp.iso8601(secondsSince1970: Date().timeIntervalSince1970, localTime: true)
        file.append("\(stamp) \(event.level) \(label):\(rendered) \(event.message)\n")
    }
}

/// The log file, written under a lock.
final class DemoLogFile: Sendable {
    let path: String
    /// The open file (-1 once closed), used only with its lock held.
    private let descriptor: Mutex<Int32>

    init(path: String) {
        self.path = path
        descriptor = Mutex(open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644))
    }

    func append(_ line: String) {
        descriptor.withLock { descriptor in
            if descriptor >= 0 { writeAll(line, to: descriptor) }
        }
    }

    func close() {
        descriptor.withLock { descriptor in
            if descriptor >= 0 { _ = Glibc.close(descriptor) }
            descriptor = -1
        }
    }
}
