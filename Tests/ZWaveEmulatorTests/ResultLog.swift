import Foundation

/// Lines collected from another thread.
final class ResultLog: @unchecked Sendable {
    // @unchecked Sendable: `items` is only touched under `lock`.
    private let lock = NSLock()
    private var items: [String] = []

    func append(_ line: String) {
        lock.lock()
        items.append(line)
        lock.unlock()
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
