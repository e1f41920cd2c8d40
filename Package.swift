// swift-tools-version:6.0
import Foundation
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    // Members of a module are visible only where it is imported: the daemon must not reach Foundation (and with it
    // ICU) through a package that imports it (README, Performance: Memory).
    .enableUpcomingFeature("MemberImportVisibility"),
    // Release: every function in a section of its own, so the linker can place the code the daemon runs
    // together (Sources/thuis-bridge/link-order.txt; see README, Performance).
    .unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release)),
    // Release on Linux is static (as `--static-swift-stdlib` makes it): compiled against the static Swift modules
    // and linked with `-static-stdlib` (the executables below), so a plain `swift build -c release` links too.
    .unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release)),
]

/// The daemon's link order: the functions it runs, placed first and together (README, Performance).
let linkOrder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Sources/thuis-bridge/link-order.txt").path

/// The toolchain's static FoundationEssentials, named as an input of the daemon's release link (README,
/// Performance: Memory). The daemon's modules use FoundationEssentials only, but TOMLKit imports Foundation, so
/// the link also names `-lFoundation`, and before FoundationEssentials: a symbol both define (a specialization
/// both emit) is then taken from Foundation, which brings all of Foundation, CoreFoundation and ICU with it
/// (1.3-2.3 MB of the daemon's RSS in same-day runs). Named as an input, the archive comes before the libraries
/// the link adds. Release builds are static (`-static-stdlib`, above and below; `--static-swift-stdlib` in the
/// README's commands says the same): a dynamic link would hold this archive and the shared FoundationEssentials
/// that the shared Foundation loads, two copies of its types. The archive is found
/// next to the PackageDescription library this manifest runs with, or next to the `swiftc` on the PATH; without
/// it the link is as before.
let staticFoundationEssentials: [String] = {
    func archive(lib: URL) -> String? {
        let path = lib.appendingPathComponent("swift_static/linux/libFoundationEssentials.a").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }
    // <toolchain>/usr/lib/swift/pm/ManifestAPI/libPackageDescription.so → <toolchain>/usr/lib
    let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
    if let line = maps.split(separator: "\n").first(where: { $0.hasSuffix("/libPackageDescription.so") }),
       let slash = line.firstIndex(of: "/") {
        var lib = URL(fileURLWithPath: String(line[slash...]))
        for _ in 0..<4 { lib.deleteLastPathComponent() }
        if let found = archive(lib: lib) { return [found] }
    }
    // <toolchain>/usr/bin/swiftc → <toolchain>/usr/lib
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
        let swiftc = URL(fileURLWithPath: String(directory)).appendingPathComponent("swiftc")
        guard FileManager.default.fileExists(atPath: swiftc.path) else { continue }
        let lib = swiftc.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("lib")
        if let found = archive(lib: lib) { return [found] }
    }
    return []
}()

let package = Package(
    name: "thuis-bridge",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "thuis-bridge", targets: ["thuis-bridge"]),
        .executable(name: "thuis-bench", targets: ["thuis-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        // MARK: C leaf targets: module maps and the one C++ shim, nothing else.
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto",
                       providers: [.apt(["libmosquitto-dev"])]),
        .systemLibrary(name: "CCEC", providers: [.apt(["libcec-dev"])]),
        .systemLibrary(name: "COpenZWave", pkgConfig: "libopenzwave",
                       providers: [.apt(["libopenzwave1.6-dev"])]),
        .target(name: "CZWaveShim", dependencies: ["COpenZWave"]),
        .systemLibrary(name: "CMalloc"),

        // MARK: System primitives the daemon's modules share (locks, threads, paths, standard streams): the
        // daemon links FoundationEssentials only, not Foundation (see README, Performance: Memory).
        .target(name: "SystemSupport", swiftSettings: strict),

        // MARK: Pure Swift core (no C).
        .target(name: "BridgeCore",
                dependencies: ["SystemSupport",
                               .product(name: "Logging", package: "swift-log"),
                               .product(name: "TOMLKit", package: "TOMLKit")],
                swiftSettings: strict),

        // MARK: Drivers: each imports exactly one C module.
        .target(name: "MQTTDriver",
                dependencies: ["CMosquitto", "BridgeCore", "SystemSupport",
                               .product(name: "Logging", package: "swift-log")],
                swiftSettings: strict),
        .target(name: "CECDriver",
                dependencies: ["CCEC", "BridgeCore", "SystemSupport",
                               .product(name: "Logging", package: "swift-log")],
                swiftSettings: strict),
        .target(name: "ZWaveDriver",
                dependencies: ["CZWaveShim", "BridgeCore", "SystemSupport",
                               .product(name: "Logging", package: "swift-log")],
                swiftSettings: strict),

        // MARK: Emulators (pure Swift, on a pty).
        .target(name: "SerialPTY", dependencies: ["SystemSupport"], swiftSettings: strict),
        .target(name: "ZWaveEmulator", dependencies: ["SerialPTY", "SystemSupport", "TOMLKit"], swiftSettings: strict),
        .target(name: "CECEmulator", dependencies: ["SerialPTY", "SystemSupport"], swiftSettings: strict),

        // MARK: Executables.
        .executableTarget(
            name: "thuis-bridge",
            dependencies: ["BridgeCore", "MQTTDriver", "CECDriver", "ZWaveDriver",
                           "ZWaveEmulator", "CECEmulator", "CMalloc", "SystemSupport",
                           .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
            exclude: ["link-order.txt"],
            swiftSettings: strict,
            // Release: linked by lld with packed relative relocations (DT_RELR, glibc 2.36+), so the start
            // reads a few kB of relocations instead of about 2 MB; the functions that run placed first and
            // together; only the two OpenZWave functions the shim replaces exported, not every Swift symbol
            // (see README, Performance: Memory).
            linkerSettings: [.unsafeFlags(staticFoundationEssentials + [
                                           "-static-stdlib", "-use-ld=lld",
                                           "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                                           "-Xlinker", "--symbol-ordering-file=\(linkOrder)",
                                           "-Xlinker", "--no-warn-symbol-ordering",
                                           "-Xlinker", "--no-export-dynamic",
                                           "-Xlinker", "--export-dynamic-symbol=_ZN9OpenZWave6Driver10WriteCacheEv",
                                           "-Xlinker", "--export-dynamic-symbol=_ZN9OpenZWave8Internal22ManufacturerSpecificDB22LoadConfigFileRevisionEPNS0_17ProductDescriptorE"],
                                          .when(platforms: [.linux], configuration: .release))]),
        .executableTarget(
            name: "thuis-bench",
            dependencies: ["BridgeCore", "MQTTDriver", "ZWaveEmulator", "CECEmulator", "CECDriver",
                           .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict,
            linkerSettings: [.unsafeFlags(["-static-stdlib", "-use-ld=lld"],
                                          .when(platforms: [.linux], configuration: .release))]),

        // MARK: Tests.
        .target(name: "TestSupport", dependencies: ["BridgeCore", "MQTTDriver", "SerialPTY"], path: "Tests/TestSupport",
                swiftSettings: strict),
        .testTarget(name: "SystemSupportTests", dependencies: ["SystemSupport"], swiftSettings: strict),
        .testTarget(name: "BridgeCoreTests", dependencies: ["BridgeCore", "TestSupport"],
                    exclude: ["Fuzz/Corpus", "Fuzz/LibFuzzer"], swiftSettings: strict),
        .testTarget(name: "MQTTDriverTests", dependencies: ["MQTTDriver", "BridgeCore", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "CECDriverTests", dependencies: ["CECDriver", "CECEmulator", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "ZWaveDriverTests", dependencies: ["ZWaveDriver", "ZWaveEmulator", "TestSupport", "SerialPTY"],
                    swiftSettings: strict),
        .testTarget(name: "ZWaveEmulatorTests", dependencies: ["ZWaveEmulator", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "CECEmulatorTests", dependencies: ["CECEmulator", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "ThuisBridgeTests", dependencies: ["thuis-bridge", "BridgeCore", "TestSupport", "ZWaveEmulator", "CECEmulator",
                                                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                                                           .product(name: "Logging", package: "swift-log")],
                    swiftSettings: strict),
    ],
    cxxLanguageStandard: .cxx17
)
