import Crypto
import Foundation
import TestSupport
import Testing

@testable import HomeKit

/// The pairing file: created private, read back the same, refused when exposed or malformed.
@Suite struct HomeKitStoreTests {
    func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func createsAPrivateFileAndReadsItBack() throws {
        let directory = try TemporaryDirectory(prefix: "hk-store")
        let path = directory.file("state/homekit/pairing.json")
        let store = try HomeKitStore(path: path)
        #expect(try mode(path) == 0o600)
        #expect(try mode(directory.file("state/homekit")) == 0o700)
        #expect(store.deviceID.wholeMatch(of: /([0-9A-F]{2}:){5}[0-9A-F]{2}/) != nil)
        #expect(store.setupID.wholeMatch(of: /[0-9A-Z]{4}/) != nil)
        #expect(!store.isPaired && store.configurationNumber == 1 && store.failedAttempts == 0)
        #expect(store.accessoryID(for: "lamp") == 2)
        #expect(store.accessoryID(for: "tv") == 3)
        #expect(store.accessoryID(for: "lamp") == 2)
        let key = Array(Curve25519.Signing.PrivateKey().publicKey.rawRepresentation)
        try store.add(Pairing(identifier: "controller-A", publicKey: key, isAdmin: true))
        try store.noteFailedAttempt()

        let reopened = try HomeKitStore(path: path)
        #expect(reopened.deviceID == store.deviceID && reopened.setupID == store.setupID)
        #expect(
            reopened.identity.signingKey.publicKey.rawRepresentation
                == store.identity.signingKey.publicKey.rawRepresentation)
        #expect(reopened.pairings == [Pairing(identifier: "controller-A", publicKey: key, isAdmin: true)])
        #expect(reopened.accessoryID(for: "tv") == 3 && reopened.accessoryID(for: "new") == 4)
        #expect(reopened.failedAttempts == 1)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }

    @Test func removingTheLastAdminRemovesEveryPairing() throws {
        let directory = try TemporaryDirectory(prefix: "hk-store")
        let store = try HomeKitStore(path: directory.file("homekit.json"))
        try store.add(Pairing(identifier: "admin", publicKey: [UInt8](repeating: 1, count: 32), isAdmin: true))
        try store.add(Pairing(identifier: "guest", publicKey: [UInt8](repeating: 2, count: 32), isAdmin: false))
        #expect(try store.remove(identifier: "admin").sorted() == ["admin", "guest"])
        #expect(!store.isPaired)
        try store.noteFailedAttempt()
        try store.add(Pairing(identifier: "admin", publicKey: [UInt8](repeating: 1, count: 32), isAdmin: true))
        try store.removeAllPairings()
        #expect(!store.isPaired && store.failedAttempts == 0)
    }

    @Test func configurationNumberFollowsTheStructureAndWraps() throws {
        let directory = try TemporaryDirectory(prefix: "hk-store")
        let path = directory.file("homekit.json")
        let store = try HomeKitStore(path: path)
        #expect(try store.noteStructure(hash: "a") == 1)
        #expect(try store.noteStructure(hash: "a") == 1)
        #expect(try store.noteStructure(hash: "b") == 2)
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = text.replacingOccurrences(of: #""configurationNumber":2"#, with: #""configurationNumber":65535"#)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let reopened = try HomeKitStore(path: path)
        #expect(reopened.configurationNumber == 65535)
        #expect(try reopened.noteStructure(hash: "c") == 1)
    }

    @Test func exposedOrMalformedFilesAreRefused() throws {
        let directory = try TemporaryDirectory(prefix: "hk-store")
        let path = directory.file("homekit.json")
        _ = try HomeKitStore(path: path)
        chmod(path, 0o640)
        #expect(throws: HomeKitStoreError.exposed(path: path, mode: 0o640)) { try HomeKitStore(path: path) }
        #expect(HomeKitStoreError.exposed(path: path, mode: 0o640).description.contains("chmod 600"))
        chmod(path, 0o600)
        try "{\"deviceID\": 3}".write(toFile: path, atomically: false, encoding: .utf8)
        #expect {
            try HomeKitStore(path: path)
        } throws: { error in
            guard case .malformed(_, let reason) = error as? HomeKitStoreError else { return false }
            return reason.contains("deviceID")
        }
    }

    /// The `hap-store` fuzzer's find: a file that gives one aid to two devices was accepted (and its state wrote
    /// out differently each time). One aid is one accessory to every controller: such a file is refused.
    @Test func aFileGivingOneAccessoryIDToTwoDevicesIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "hk-store")
        let path = directory.file("homekit.json")
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("BridgeCoreTests/Fuzz/Corpus/hap-store/crash-duplicate-accessory-id.json")
        try Data(contentsOf: corpus).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        #expect {
            try HomeKitStore(path: path)
        } throws: { error in
            guard case .malformed(_, let reason) = error as? HomeKitStoreError else { return false }
            return reason.contains("accessory id 2 is given to both")
        }
    }

    /// Adds from several threads at once: each is written in turn, and the file holds them all, with no
    /// temporary file left beside it.
    @Test func concurrentAddsAreAllWritten() async throws {
        let directory = try TemporaryDirectory(prefix: "hk-store")
        let path = directory.file("homekit.json")
        let store = try HomeKitStore(path: path)
        let failures = await withTaskGroup(of: [String].self) { group in
            for thread in 0..<4 {
                group.addTask {
                    await onThread {
                        (0..<25).compactMap { index -> String? in
                            do {
                                try store.add(
                                    Pairing(
                                        identifier: "controller-\(thread)-\(index)",
                                        publicKey: [UInt8](repeating: UInt8(thread), count: 32), isAdmin: true))
                                return nil
                            } catch {
                                return "\(error)"
                            }
                        }
                    }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(failures.isEmpty, "\(failures.first ?? "")")
        let reopened = try HomeKitStore(path: path)
        #expect(reopened.pairings.count == 100)
        #expect(Set(reopened.pairings.map(\.identifier)) == Set(store.pairings.map(\.identifier)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["homekit.json"])
    }

    /// A pairing that cannot be written is not kept (the error says why); a new accessory id is (until the
    /// bridge stops).
    @Test func aChangeThatCannotBeWrittenIsNotKept() throws {
        let directory = try TemporaryDirectory(prefix: "hk-store")
        let path = directory.file("homekit.json")
        let store = try HomeKitStore(path: path)
        // A directory where the file is: the rename over it fails, whoever runs the test (root included).
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect {
            try store.add(
                Pairing(identifier: "controller-A", publicKey: [UInt8](repeating: 1, count: 32), isAdmin: true))
        } throws: { error in
            guard case .unwritable = error as? HomeKitStoreError else { return false }
            return true
        }
        #expect(store.pairings.isEmpty && !store.isPaired)
        #expect(throws: HomeKitStoreError.self) { try store.noteFailedAttempt() }
        #expect(store.failedAttempts == 0)
        #expect(store.accessoryID(for: "lamp") == 2 && store.accessoryID(for: "lamp") == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["homekit.json"])
    }
}
