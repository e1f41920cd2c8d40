import Foundation

/// A thread-safe log of things seen on other threads (pty bytes, events, log lines) that a test
/// polls with a deadline.
final class Recorder<Element: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `items` is only touched under `lock`.
    private let lock = NSLock()
    private var items: [Element] = []

    func append(_ element: Element) {
        lock.lock()
        items.append(element)
        lock.unlock()
    }

    func append(contentsOf elements: [Element]) {
        lock.lock()
        items.append(contentsOf: elements)
        lock.unlock()
    }

    var all: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }

    /// Polls `condition` over everything recorded until it holds or `timeout` passes.
    func wait(timeout: Duration, until condition: ([Element]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(all) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(all)
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in the bytes, and how many times.
    func occurrences(of needle: [UInt8]) -> Int {
        guard !needle.isEmpty, count >= needle.count else { return 0 }
        var n = 0
        for start in 0...(count - needle.count) where self[start..<(start + needle.count)].elementsEqual(needle) {
            n += 1
        }
        return n
    }
}
