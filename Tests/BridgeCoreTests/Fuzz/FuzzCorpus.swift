import Foundation

/// The committed seed inputs under `Tests/BridgeCoreTests/Fuzz/Corpus/<target>/` (one input per file, read as
/// bytes). The directory is found from this source file's path, so the tests need no bundled resources.
enum FuzzCorpus {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")

    /// Every file of `target`'s corpus, in name order.
    static func load(_ target: String) throws -> [[UInt8]] {
        let directory = root.appendingPathComponent(target)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        return try names.filter { !$0.hasPrefix(".") }.map { name in
            Array(try Data(contentsOf: directory.appendingPathComponent(name)))
        }
    }
}
