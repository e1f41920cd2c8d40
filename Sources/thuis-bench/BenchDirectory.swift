import Foundation

/// The run's temporary directory (removed by `remove()` unless `--keep` is given).
struct BenchDirectory: Sendable {
    let path: String

    init() throws {
        let template = (NSTemporaryDirectory() as NSString).appendingPathComponent("thuis-bench.XXXXXX")
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else { throw BenchError("mkdtemp failed: errno \(errno)") }
        path = String(cString: made)
    }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// A fresh subdirectory.
    func subdirectory(_ name: String) throws -> String {
        let sub = file(name)
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        return sub
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let target = file(name)
        try text.write(toFile: target, atomically: true, encoding: .utf8)
        return target
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
