import Foundation
import Synchronization

/// Lines collected from another thread.
final class ResultLog: Sendable {
    private let items = Mutex<[String]>([])

    func append(_ line: String) { items.withLock { $0.append(line) } }

    var lines: [String] { items.withLock { $0 } }
}
