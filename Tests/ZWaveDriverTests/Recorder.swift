import Foundation
import Synchronization
import TestSupport

/// A thread-safe log of things seen on other threads (pty bytes, events, log lines) that a test
/// polls with a deadline.
final class Recorder<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    func append(_ element: Element) { items.withLock { $0.append(element) } }

    func append(contentsOf elements: [Element]) { items.withLock { $0.append(contentsOf: elements) } }

    var all: [Element] { items.withLock { $0 } }

    /// Polls `condition` over everything recorded until it holds or `timeout` passes.
    func wait(timeout: Duration, until condition: ([Element]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + TestTime.scaled(timeout)
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
