import Foundation
import HomeKit
import IntegrationSupport
import TerminalQR
import TestSupport
import Testing

/// Runs the real `thuis-bridge homekit` binary on a configuration with `[homekit]` and a pairing file.
@Suite(.endToEnd) struct HomeKitCommandTests {
    static let setupCode = "031-45-154"
    static let pairings = """
        {"setup_id": "7OSX", "accessory_ids": {"bedroom/light": 2},
         "pairings": [
          {"id": "A1B2C3D4-0000-4000-8000-000000000001", "admin": true, "public_key": "00"},
          {"id": "A1B2C3D4-0000-4000-8000-000000000002", "admin": false, "public_key": "01"}]}
        """

    /// A devices.toml with `[homekit]` pointing at `pairing file` in `directory`.
    static func configuration(in directory: TemporaryDirectory, code: String = setupCode) throws -> String {
        try directory.write(
            "devices.toml",
            """
            [bridge]
            name = "living"

            [homekit]
            enabled = true
            setup_code = "\(code)"
            pairing_file = "\(directory.file("pairings.json"))"

            """)
    }

    func homekit(_ arguments: [String]) async throws -> BuiltProduct.RunResult {
        try await BuiltProduct.run("thuis-bridge", ["homekit"] + arguments)
    }

    @Test func showsTheSetupCodeItsQRCodeAndThePairedControllers() async throws {
        let directory = try TemporaryDirectory(prefix: "homekit-cli")
        defer { directory.remove() }
        let config = try Self.configuration(in: directory)
        _ = try directory.write("pairings.json", Self.pairings)

        let result = try await homekit(["--config", config])
        #expect(result.status == 0, "\(result.standardError)")
        let out = result.standardOutput
        #expect(out.contains("SETUP CODE  \(Self.setupCode)"), "\(out)")
        // The QR code of the X-HM payload (category bridge, the file's setup id), drawn without colours off a
        // terminal, exactly as the renderer draws it.
        let payload = SetupPayload(code: try SetupCode(Self.setupCode), setupID: "7OSX").uri
        #expect(payload.hasSuffix("7OSX"))
        #expect(out.contains("Setup payload: \(payload)"), "\(out)")
        #expect(out.contains(try QRCode(payload).rendered(colors: false)), "no QR code of \(payload) in \(out)")
        #expect(out.contains("PAIRED CONTROLLERS  2"), "\(out)")
        let rows = out.split(separator: "\n").filter { $0.hasPrefix("A1B2C3D4-") }
            .map { $0.split(separator: " ").map(String.init) }
        #expect(
            rows == [
                ["A1B2C3D4-0000-4000-8000-000000000001", "yes"], ["A1B2C3D4-0000-4000-8000-000000000002", "no"],
            ], "\(out)")
    }

    /// Before the bridge first ran with HomeKit there is no pairing file: the code as text, no QR code, no
    /// controllers.
    @Test func withoutAPairingFileTheCodeIsShownAsText() async throws {
        let directory = try TemporaryDirectory(prefix: "homekit-cli")
        defer { directory.remove() }
        let result = try await homekit(["--config", try Self.configuration(in: directory)])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("SETUP CODE  \(Self.setupCode)"))
        #expect(result.standardOutput.contains("No QR code yet"), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("█"))
        #expect(result.standardOutput.contains("PAIRED CONTROLLERS  none"))
    }

    @Test func reset() async throws {
        let directory = try TemporaryDirectory(prefix: "homekit-cli")
        defer { directory.remove() }
        let config = try Self.configuration(in: directory)
        let file = try directory.write("pairings.json", Self.pairings)

        let result = try await homekit(["reset", "--config", config])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Removed 2 pairings:"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("A1B2C3D4-0000-4000-8000-000000000001 (admin)"))
        #expect(result.standardOutput.contains("A1B2C3D4-0000-4000-8000-000000000002\n"))
        #expect(result.standardOutput.contains("Restart the bridge"))
        // The pairings are gone; the setup id and the accessory ids stay; the file stays private.
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("\"pairings\":[]"), "\(text)")
        #expect(text.contains("\"setup_id\":\"7OSX\""), "\(text)")
        #expect(text.contains("\"bedroom/light\":2"), "\(text)")
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        let shown = try await homekit(["--config", config])
        #expect(shown.standardOutput.contains("PAIRED CONTROLLERS  none"), "\(shown.standardOutput)")
        let again = try await homekit(["reset", "--config", config])
        #expect(again.status == 0)
        #expect(again.standardOutput.contains("No controller is paired: nothing to remove."))
    }

    /// A forbidden or malformed setup code, or no `[homekit]` section: exit 2 with the key; a pairing file that is
    /// not JSON: exit 1 with its path.
    @Test func badInputIsAClearError() async throws {
        let directory = try TemporaryDirectory(prefix: "homekit-cli")
        defer { directory.remove() }
        var result = try await homekit(["--config", try Self.configuration(in: directory, code: "123-45-678")])
        #expect(result.status == 2)
        #expect(result.standardError.contains("homekit.setup_code"), "\(result.standardError)")
        #expect(result.standardError.contains("forbids"), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)

        result = try await homekit(["--config", try Self.configuration(in: directory, code: "0314-5154")])
        #expect(result.status == 2)
        #expect(result.standardError.contains("XXX-XX-XXX"), "\(result.standardError)")

        let bare = try directory.write("bare.toml", "[bridge]\nname = \"living\"\n")
        result = try await homekit(["--config", bare])
        #expect(result.status == 2)
        #expect(result.standardError.contains("no [homekit] section"), "\(result.standardError)")

        let config = try Self.configuration(in: directory)
        let file = try directory.write("pairings.json", "not json")
        result = try await homekit(["reset", "--config", config])
        #expect(result.status == 1)
        #expect(result.standardError.contains("\(file): the pairing file is not a JSON object"))
    }
}
