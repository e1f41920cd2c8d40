import Logging
import Synchronization
import TestSupport

/// Log lines as they come, for a test that waits for one (an event) instead of sleeping: a handler that records
/// each line and wakes the waiters whose text it contains.
final class LogWatch: Sendable {
    private struct State {
        var lines: [String] = []
        var waiters: [(text: String, continuation: CheckedContinuation<String, Never>)] = []
    }

    private let state = Mutex(State())

    /// A handler for `Logger(label:factory:)`; combine with others through `MultiplexLogHandler`.
    func handler() -> any LogHandler { Handler(watch: self) }

    /// The first line that contains `text`, now or when it is logged; nil when none is within `limit` (scaled).
    func line(containing text: String, within limit: Duration = .seconds(30)) async throws -> String? {
        try await finishing(within: limit) {
            await withCheckedContinuation { continuation in
                let found: String? = self.state.withLock { state in
                    if let line = state.lines.first(where: { $0.contains(text) }) { return line }
                    state.waiters.append((text, continuation))
                    return nil
                }
                if let found { continuation.resume(returning: found) }
            }
        }
    }

    fileprivate func append(_ line: String) {
        let woken = state.withLock { state in
            state.lines.append(line)
            let matching = state.waiters.filter { line.contains($0.text) }
            state.waiters.removeAll { line.contains($0.text) }
            return matching.map(\.continuation)
        }
        for continuation in woken { continuation.resume(returning: line) }
    }

    private struct Handler: LogHandler {
        let watch: LogWatch
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) { watch.append("\(event.level) \(event.message)") }
    }
}
