import Foundation

/// Finds an executable built next to the test bundle (the build products directory).
enum BuiltProducts {
    static func executable(_ name: String) -> String? {
        var candidates: [URL] = []
        for path in [Bundle.main.bundlePath, Bundle.main.executablePath, CommandLine.arguments.first].compactMap({ $0 })
        {
            var url = URL(fileURLWithPath: path)
            for _ in 0..<5 {
                url = url.deletingLastPathComponent()
                candidates.append(url.appendingPathComponent(name))
            }
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(
                URL(fileURLWithPath: bundle.bundlePath).deletingLastPathComponent().appendingPathComponent(name))
        }
        return candidates.map(\.path).first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
