import Foundation
import Logging

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
        let rendered = all.isEmpty ? "" : " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let stamp = ISO8601DateFormatter.string(from: Date(), timeZone: .current, formatOptions: [.withInternetDateTime])
        file.append("\(stamp) \(event.level) \(label):\(rendered) \(event.message)\n")
    }
}

/// The log file, written under a lock.
final class DemoLogFile: @unchecked Sendable {
    // @unchecked Sendable: `handle` is only used under `lock`.
    let path: String
    private let lock = NSLock()
    private let handle: FileHandle?

    init(path: String) {
        self.path = path
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        handle = FileHandle(forWritingAtPath: path)
    }

    func append(_ line: String) {
        lock.withLock { try? handle?.write(contentsOf: Data(line.utf8)) }
    }

    func close() {
        lock.withLock { try? handle?.close() }
    }
}
