// swift-tools-version:6.1
import PackageDescription

let upcoming: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    // Members of a module are visible only where it is imported: the daemon must not reach Foundation (and with it
    // ICU) through a package that imports it (README, Performance: Memory).
    .enableUpcomingFeature("MemberImportVisibility"),
]
let strict: [SwiftSetting] = upcoming

let package = Package(
    name: "thuis-bridge",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "thuis-bridge", targets: ["thuis-bridge"]),
        .executable(name: "thuis-lab", targets: ["thuis-lab"]),
        .executable(name: "thuis-bench", targets: ["thuis-bench"]),
    ],
    // Every dependency at one version (`exact:`): an application, built the same way wherever it is built, and the
    // package manager's resolved file is not committed here.
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        // Exact: the configuration preflight (TOMLPreflight) is written against this version's parser.
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        // The dashboard. Hummingbird without its default traits: `FullFoundation` and `ConfigurationSupport` would
        // bring Foundation (and with it ICU) into the daemon, which links FoundationEssentials only.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", exact: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        // HomeKit: Curve25519, ChaChaPoly, HKDF and SHA-512.
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
    ],
    targets: [
        // MARK: C leaf targets: module maps and the shims, nothing else.
        .systemLibrary(
            name: "CMosquitto", pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]),
        .systemLibrary(name: "CCEC", providers: [.apt(["libcec-dev"])]),
        .systemLibrary(
            name: "COpenZWave", pkgConfig: "libopenzwave",
            providers: [.apt(["libopenzwave1.6-dev"])]),
        .target(name: "CZWaveShim", dependencies: ["COpenZWave"]),
        // OpenSSL's libcrypto for big-number arithmetic (HomeKit's SRP-6a).
        .systemLibrary(
            name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // avahi's client library: publishing the HomeKit service through the machine's avahi-daemon (D-Bus). No
        // pkgConfig: its only flag, -D_REENTRANT, is one SwiftPM refuses with a warning; the headers are in
        // /usr/include and the module map links the libraries.
        .systemLibrary(name: "CAvahi", providers: [.apt(["libavahi-client-dev"])]),
        // libqrencode: the QR code of the HomeKit setup payload.
        .systemLibrary(
            name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),

        // MARK: System primitives the daemon's modules share (locks, threads, paths, standard streams): the
        // daemon links FoundationEssentials only, not Foundation (see README, Performance: Memory).
        .target(name: "SystemSupport", swiftSettings: strict),

        // MARK: Pure Swift core (no C).
        .target(
            name: "BridgeCore",
            dependencies: [
                "SystemSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            swiftSettings: strict),

        // MARK: Drivers: each imports its library's C module (OpenZWave's through its shim, CZWaveShim).
        .target(
            name: "MQTTDriver",
            dependencies: [
                "CMosquitto", "COpenSSL", "BridgeCore", "SystemSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .target(
            name: "CECDriver",
            dependencies: [
                "CCEC", "BridgeCore", "SystemSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .target(
            name: "ZWaveDriver",
            dependencies: [
                "CZWaveShim", "BridgeCore", "SystemSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),

        // MARK: Front ends beside the MQTT contract (pure Swift over the core).
        .target(
            name: "HomeAssistant",
            dependencies: ["BridgeCore", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict),

        // HomeKit Accessory Protocol: TLV8, the setup code and payload, SRP-6a.
        .target(
            name: "HomeKit",
            dependencies: [
                "COpenSSL", "BridgeCore", "SystemSupport", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict),

        // A HAP controller (pairing, the encrypted session, events): the HomeKit tests' and thuis-bench's.
        .target(
            name: "HomeKitClient",
            dependencies: [
                "HomeKit", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict),

        // The bridge's devices as HomeKit accessories (the model the HAP server serves), fed by the bridge's
        // publications; writes go through the bridge's command path.
        .target(
            name: "HomeKitBridge",
            dependencies: ["HomeKit", "BridgeCore", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict),

        // DNS-SD advertising (`_hap._tcp`) through avahi-daemon.
        .target(
            name: "ServiceAdvertising",
            dependencies: ["CAvahi", "SystemSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict),
        // A QR code drawn with half-block characters, for the terminal (the HomeKit setup payload).
        .target(name: "TerminalQR", dependencies: ["CQREncode"], swiftSettings: strict),

        // The dashboard: Hummingbird routes, the WebSocket, /metrics, and the pages from Assets/, embedded into the
        // binary by the EmbedAssets plugin (one file installs; SwiftPM resources would be a bundle beside it).
        .target(
            name: "WebDashboard",
            dependencies: [
                "BridgeCore", "SystemSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["Assets"], swiftSettings: strict, plugins: ["EmbedAssets"]),
        // A build tool that runs on the build machine (never linked into a product): not static.
        .executableTarget(name: "embed-assets", path: "Sources/EmbedAssetsTool", swiftSettings: upcoming),
        .plugin(
            name: "EmbedAssets", capability: .buildTool(), dependencies: ["embed-assets"],
            path: "Sources/EmbedAssetsPlugin"),

        // MARK: The daemon's composition root and services, shared by `thuis-bridge run` and `thuis-lab demo`.
        .target(
            name: "BridgeDaemon",
            dependencies: [
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "BridgeCore", "MQTTDriver", "CECDriver", "ZWaveDriver", "HomeAssistant", "WebDashboard",
                "HomeKit", "HomeKitBridge", "ServiceAdvertising", "SystemSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),

        // MARK: Emulators (pure Swift, on a pty): tests, the demo and the benchmark; never the daemon.
        .target(
            name: "SerialPTY", dependencies: ["SystemSupport"], path: "Sources/Emulators/SerialPTY",
            swiftSettings: strict),
        .target(
            name: "ZWaveEmulator", dependencies: ["SerialPTY", "SystemSupport", "TOMLKit"],
            path: "Sources/Emulators/ZWaveEmulator", swiftSettings: strict),
        .target(
            name: "CECEmulator", dependencies: ["SerialPTY", "SystemSupport"],
            path: "Sources/Emulators/CECEmulator", swiftSettings: strict),

        // MARK: The lab: one mosquitto launcher, child processes, free ports and the time scale for the tests, the
        // demo and the benchmark; never the daemon.
        .target(name: "LabSupport", dependencies: ["SystemSupport", "SerialPTY"], swiftSettings: strict),

        // MARK: Executables.
        .executableTarget(
            name: "thuis-bridge",
            dependencies: [
                "BridgeCore", "BridgeDaemon", "MQTTDriver", "ZWaveDriver", "HomeAssistant", "SystemSupport", "HomeKit",
                "TerminalQR",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "thuis-lab",
            dependencies: [
                "BridgeCore", "BridgeDaemon", "MQTTDriver", "SystemSupport", "HomeKit",
                "ZWaveEmulator", "CECEmulator", "SerialPTY", "LabSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "thuis-bench",
            dependencies: [
                "BridgeCore", "MQTTDriver", "ZWaveEmulator", "CECEmulator", "CECDriver", "SystemSupport",
                "HomeKit", "HomeKitClient", "LabSupport", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),

        // MARK: Tests.
        .target(
            name: "TestSupport",
            dependencies: ["BridgeCore", "LabSupport", .product(name: "Logging", package: "swift-log")],
            path: "Tests/TestSupport", swiftSettings: strict),
        .target(
            name: "IntegrationSupport",
            dependencies: ["TestSupport", "LabSupport", "BridgeCore", "MQTTDriver", "SerialPTY", "SystemSupport"],
            path: "Tests/IntegrationSupport",
            swiftSettings: strict),
        .testTarget(name: "SystemSupportTests", dependencies: ["SystemSupport", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "BridgeCoreTests", dependencies: ["BridgeCore", "SystemSupport", "TestSupport"],
            exclude: ["Fuzz/Corpus", "Fuzz/LibFuzzer"], swiftSettings: strict),
        .testTarget(
            name: "WebDashboardTests",
            dependencies: [
                "WebDashboard", "BridgeCore", "TestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "HomeKitTests",
            dependencies: [
                "HomeKit", "HomeKitClient", "BridgeCore", "TestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Python"], swiftSettings: strict),
        .testTarget(
            name: "HomeKitBridgeTests", dependencies: ["HomeKitBridge", "HomeKit", "BridgeCore", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "ServiceAdvertisingTests",
            dependencies: ["ServiceAdvertising", "TestSupport", "IntegrationSupport"], swiftSettings: strict),
        .testTarget(
            name: "TerminalQRTests", dependencies: ["TerminalQR", "IntegrationSupport"], swiftSettings: strict),
        .testTarget(
            name: "HomeAssistantTests", dependencies: ["HomeAssistant", "BridgeCore", "TestSupport"],
            exclude: ["Golden"], swiftSettings: strict),
        .testTarget(
            name: "MQTTDriverTests", dependencies: ["MQTTDriver", "BridgeCore", "TestSupport", "IntegrationSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "CECDriverTests",
            dependencies: [
                "CECDriver", "CECEmulator", "TestSupport", "IntegrationSupport", "SystemSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "ZWaveDriverTests",
            dependencies: [
                "ZWaveDriver", "ZWaveEmulator", "TestSupport", "IntegrationSupport", "SerialPTY", "SystemSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "ZWaveEmulatorTests", dependencies: ["ZWaveEmulator", "TestSupport", "IntegrationSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "CECEmulatorTests",
            dependencies: ["CECEmulator", "TestSupport", "IntegrationSupport", "SystemSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "ThuisLabTests", dependencies: ["thuis-lab", "MQTTDriver", "TestSupport", "IntegrationSupport"],
            swiftSettings: strict),
        .testTarget(name: "ThuisBenchTests", dependencies: ["thuis-bench", "ZWaveEmulator"], swiftSettings: strict),
        .testTarget(
            name: "ThuisBridgeTests",
            dependencies: [
                "thuis-bridge", "BridgeDaemon", "BridgeCore", "WebDashboard", "TestSupport", "IntegrationSupport",
                "ZWaveEmulator", "CECEmulator", "SystemSupport", "HomeKit", "TerminalQR",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["HomeAssistant", "Dashboard", "HomeKit/hap_session.py"], swiftSettings: strict),
    ],
    cxxLanguageStandard: .cxx17
)
