import Foundation

/// A fresh directory under the system temporary directory, removed by `remove()` or at deinit.
public final class TemporaryDirectory: @unchecked Sendable {  // `path` is immutable; removal is idempotent
    public let path: String

    /// Creates `/tmp/<prefix>-XXXXXX` (mode 0700).
    public init(prefix: String = "thuis-test") throws {
        var template = Array((NSTemporaryDirectory() + "/\(prefix)-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress, let result = mkdtemp(base) else { return nil }
            return String(cString: result)
        }
        guard let created else { throw TestSupportError("mkdtemp failed: errno \(errno)") }
        path = created
    }

    deinit { remove() }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Writes `contents` to `name` inside the directory and returns its path.
    @discardableResult
    public func write(_ name: String, _ contents: String) throws -> String {
        let target = file(name)
        try contents.write(toFile: target, atomically: true, encoding: .utf8)
        return target
    }

    /// Deletes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
