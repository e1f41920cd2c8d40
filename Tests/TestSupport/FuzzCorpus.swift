import Foundation

/// The committed fuzzing inputs under `Tests/BridgeCoreTests/Fuzz/Corpus/<fuzzer>/`: the seeds of the in-suite mutation
/// fuzzer and of the libFuzzer fuzzers (`.ci/fuzz`), and the crashers they found (`crash-*`), which the tests replay.
/// One input per file, read as bytes; found from this source file's path, so the tests need no bundled resources.
public enum FuzzCorpus {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("BridgeCoreTests/Fuzz/Corpus")

    /// Every file of `fuzzer`'s corpus, in name order.
    public static func load(_ fuzzer: String) throws -> [[UInt8]] {
        try named(fuzzer).map(\.bytes)
    }

    /// Every file of `fuzzer`'s corpus with its name, in name order.
    public static func named(_ fuzzer: String) throws -> [(name: String, bytes: [UInt8])] {
        let directory = root.appendingPathComponent(fuzzer)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        return try names.filter { !$0.hasPrefix(".") }.map { name in
            (name, Array(try Data(contentsOf: directory.appendingPathComponent(name))))
        }
    }
}
