import BridgeCore
import Foundation
import TestSupport
import Testing

@testable import HomeKit

/// aiohomekit (the library under Home Assistant's HomeKit Controller) against the real server: pairs, lists the
/// accessories, reads and writes, lists and removes its pairing. Runs when `HAP_AIOHOMEKIT_PYTHON` names the
/// Python of a venv with aiohomekit installed.
@Suite struct AIOHomeKitTests {
    static let python = ProcessInfo.processInfo.environment["HAP_AIOHOMEKIT_PYTHON"]

    @Test(.enabled(if: python != nil, "HAP_AIOHOMEKIT_PYTHON names a Python with aiohomekit"))
    func aiohomekitPairsReadsWritesAndUnpairs() async throws {
        let python = try #require(Self.python)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Python/aiohomekit_session.py").path
        try await ServerFixture.run { server in
            let arguments = [script, "127.0.0.1", String(server.port), ServerFixture.code, server.store.deviceID]
            let (status, stdout, stderr) = await runPython(python, arguments)
            #expect(status == 0, "\(String(decoding: stderr, as: UTF8.self))")
            let report = try JSONValue.parse(Array(stdout))
            print("aiohomekit: \(report.serialized)")
            #expect(report["paired"] == .string(server.store.deviceID))
            #expect(report["accessories"] == .int(2))
            #expect(report["removed"] == .bool(true))
            #expect(server.model.value(FakeAccessoryModel.on) == .bool(true))
            #expect(!server.store.isPaired)
        }
    }
}
