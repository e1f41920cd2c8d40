import BridgeCore
import Foundation
import TestSupport
import Testing

/// `[zwave] network_key_file`: the Z-Wave network key (S0), checked at load as the daemon reads it, never shown.
@Suite struct NetworkKeyConfigurationTests {
    static let key = "0F1E2D3C4B5A69788796A5B4C3D2E1F0"
    static let keyBytes: [UInt8] = [
        0x0F, 0x1E, 0x2D, 0x3C, 0x4B, 0x5A, 0x69, 0x78, 0x87, 0x96, 0xA5, 0xB4, 0xC3, 0xD2, 0xE1, 0xF0,
    ]
    static let openZWaveFormat =
        "0x0F, 0x1E, 0x2D, 0x3C, 0x4B, 0x5A, 0x69, 0x78, 0x87, 0x96, 0xA5, 0xB4, 0xC3, 0xD2, 0xE1, 0xF0"

    /// A devices.toml naming `keyFile`, in `directory`.
    static func configuration(in directory: URL, keyFile: String) throws -> String {
        let file = directory.appendingPathComponent("devices.toml")
        let fixture = ConfigFixture(name: "living", zwave: .init(port: "/dev/zwave", networkKeyFile: keyFile))
        try Data(fixture.text.utf8).write(to: file)
        return file.path
    }

    /// Runs `body` with a fresh directory holding the key file `zwave.key` with `contents` and `mode`.
    static func withKeyFile(
        _ contents: String, mode: Int, _ body: (_ directory: URL, _ keyFile: String) throws -> Void
    ) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("thuis-key-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("zwave.key").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: keyFile))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: keyFile)
        try body(directory, keyFile)
    }

    @Test(arguments: [
        key, key + "\n", key.lowercased(), "0x" + key, "0X" + key + "\r\n", openZWaveFormat, openZWaveFormat + "\n",
        openZWaveFormat.replacingOccurrences(of: ", ", with: ",\n"),
        openZWaveFormat.replacingOccurrences(of: "0x0F", with: "F").replacingOccurrences(of: "0x", with: ""),
        "0F1E2D3C 4B5A6978\n8796A5B4 C3D2E1F0\n",
    ])
    func acceptedFormats(_ text: String) throws {
        let parsed = try ZWaveNetworkKey(text: text)
        #expect(parsed.bytes == Self.keyBytes)
        #expect(parsed.openZWaveOption == Self.openZWaveFormat.replacingOccurrences(of: ", ", with: ","))
    }

    @Test(arguments: [
        ("", "found 0 hex digits"), (String(key.dropLast()), "found 31 hex digits"),
        (key + "0", "found 33 hex digits"), (String(key.dropLast()) + "G", "not a hex digit"),
        ("0x" + String(repeating: "0", count: 32), "all 16 bytes are zero"),
        (openZWaveFormat + ", 0x01", "found 17 comma-separated values"),
        (openZWaveFormat.replacingOccurrences(of: "0x0F", with: "0x100"), "not a byte in hex"),
        (openZWaveFormat.replacingOccurrences(of: "0x0F,", with: ","), "not a byte in hex"),
        (key.replacingOccurrences(of: "0F", with: "-F"), "not a hex digit"),
    ])
    func refusedContents(_ text: String, reason: String) throws {
        #expect {
            try ZWaveNetworkKey(text: text)
        } throws: { error in
            let description = "\(error)"
            return description.contains(reason) && (text.isEmpty || !description.contains(text))
        }
    }

    @Test func theKeyIsNeverShown() throws {
        let key = try ZWaveNetworkKey(text: Self.key)
        var dumped = ""
        dump(key, to: &dumped)
        for shown in ["\(key)", String(reflecting: key), dumped, "\(Optional(key) as Any)", "\([key])"] {
            #expect(!shown.uppercased().contains("0F1E"), "\(shown)")
            #expect(!shown.contains("15, 30"), "\(shown)")
        }
    }

    @Test func parseTakesThePathAndRefusesAnEmptyOne() throws {
        func text(_ keyFile: String?) -> String {
            ConfigFixture(name: "living", zwave: .init(port: "/dev/zwave", networkKeyFile: keyFile)).text
        }
        #expect(try ConfigurationLoader.parse(text: text("/etc/k")).zwave?.networkKeyFile == "/etc/k")
        #expect(try ConfigurationLoader.parse(text: text(nil)).zwave?.networkKeyFile == nil)
        #expect {
            try ConfigurationLoader.parse(text: text(""))
        } throws: { error in
            (error as? ConfigurationError)?.problems.map(\.keyPath) == ["zwave.network_key_file"]
        }
    }

    @Test func loadAcceptsAKeyOnlyItsOwnerMayRead() throws {
        try Self.withKeyFile(Self.openZWaveFormat + "\n", mode: 0o600) { directory, keyFile in
            let loaded = try ConfigurationLoader.load(path: try Self.configuration(in: directory, keyFile: keyFile))
            #expect(loaded.zwave?.networkKeyFile == keyFile)
            #expect(try ZWaveNetworkKey(contentsOfFile: keyFile).bytes == Self.keyBytes)
        }
        try Self.withKeyFile(Self.key, mode: 0o400) { directory, keyFile in
            _ = try ConfigurationLoader.load(path: try Self.configuration(in: directory, keyFile: keyFile))
        }
    }

    @Test(arguments: [0o640, 0o604, 0o644, 0o660, 0o610, 0o601])
    func loadRefusesAKeyTheGroupOrOthersMayAccess(mode: Int) throws {
        try Self.withKeyFile(Self.key, mode: mode) { directory, keyFile in
            let problems = try Self.loadProblems(try Self.configuration(in: directory, keyFile: keyFile))
            #expect(problems.map(\.keyPath) == ["zwave.network_key_file"])
            #expect(problems.first?.line == 5)
            let message = problems.first?.message ?? ""
            #expect(message.contains("mode 0\(String(mode, radix: 8))") && message.contains("chmod 600"), "\(message)")
            #expect(!message.contains(Self.key))
        }
    }

    @Test func loadRefusesAMissingUnreadableOrMalformedKeyFile() throws {
        try Self.withKeyFile("0x01, 0x02\n", mode: 0o600) { directory, keyFile in
            let malformed = try Self.loadProblems(try Self.configuration(in: directory, keyFile: keyFile))
            #expect(malformed.map(\.keyPath) == ["zwave.network_key_file"])
            #expect(malformed.first?.message.contains("not a network key") == true, "\(malformed)")
            #expect(malformed.first?.message.contains("0x01") == false, "\(malformed)")

            let missing = try Self.loadProblems(try Self.configuration(in: directory, keyFile: keyFile + ".missing"))
            #expect(missing.first?.message.contains("cannot be read: no such file") == true, "\(missing)")

            try FileManager.default.createDirectory(atPath: keyFile + ".d", withIntermediateDirectories: true)
            let directoryKey = try Self.loadProblems(try Self.configuration(in: directory, keyFile: keyFile + ".d"))
            #expect(directoryKey.first?.message.contains("it is a directory") == true, "\(directoryKey)")

            if getuid() != 0 {  // root reads any file
                try FileManager.default.setAttributes([.posixPermissions: 0o200], ofItemAtPath: keyFile)
                let unreadable = try Self.loadProblems(try Self.configuration(in: directory, keyFile: keyFile))
                #expect(unreadable.first?.message.contains("permission denied") == true, "\(unreadable)")
            }
        }
    }

    /// The problems `load` refuses the file at `path` with; records an issue when it is accepted.
    static func loadProblems(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [ConfigurationProblem]
    {
        do {
            _ = try ConfigurationLoader.load(path: path)
            Issue.record("the configuration was accepted", sourceLocation: sourceLocation)
            return []
        } catch {
            return error.problems
        }
    }
}
