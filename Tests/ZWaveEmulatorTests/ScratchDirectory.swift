import Foundation

/// A temporary directory removed at deinit.
final class ScratchDirectory {
    let path: String

    init() throws {
        let p = FileManager.default.temporaryDirectory.appendingPathComponent("zwe-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
        path = p
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
