import Foundation
import HomeKit
import IntegrationSupport
import LabSupport
import TerminalQR
import TestSupport
import Testing

/// Runs the real `thuis-bridge homekit` binary on a configuration with `[homekit]` and a pairing file.
@Suite(.endToEnd) struct HomeKitCommandTests {
    static let setupCode = "031-45-154"
    static let admin = "A1B2C3D4-0000-4000-8000-000000000001"
    static let user = "A1B2C3D4-0000-4000-8000-000000000002"

    /// The pairing file as the bridge keeps it, with an admin and a non-admin controller and the dimmer's aid.
    static func pairingFile(in directory: TemporaryDirectory) throws -> HomeKitStore {
        let store = try HomeKitStore(path: directory.file("pairings.json"))
        try store.add(Pairing(identifier: admin, publicKey: Array(repeating: 1, count: 32), isAdmin: true))
        try store.add(Pairing(identifier: user, publicKey: Array(repeating: 2, count: 32), isAdmin: false))
        #expect(store.accessoryID(for: "zwave:2") == 2)
        return store
    }

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
        let store = try Self.pairingFile(in: directory)

        let result = try await homekit(["--config", config])
        #expect(result.status == 0, "\(result.standardError)")
        let out = result.standardOutput
        #expect(out.contains("SETUP CODE  \(Self.setupCode)"), "\(out)")
        // The QR code of the X-HM payload (category bridge, the file's setup id), drawn without colours off a
        // terminal, exactly as the renderer draws it.
        let payload = SetupPayload(code: try SetupCode(Self.setupCode), setupID: store.setupID).uri
        #expect(payload.hasSuffix(store.setupID))
        #expect(out.contains("Setup payload: \(payload)"), "\(out)")
        #expect(out.contains(try QRCode(payload).rendered(colors: false)), "no QR code of \(payload) in \(out)")
        #expect(out.contains("PAIRED CONTROLLERS  2"), "\(out)")
        let rows = out.split(separator: "\n").filter { $0.hasPrefix("A1B2C3D4-") }
            .map { $0.split(separator: " ").map(String.init) }
        #expect(
            rows == [[Self.admin, "yes"], [Self.user, "no"]], "\(out)")
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
        let before = try Self.pairingFile(in: directory)
        let file = before.path

        let result = try await homekit(["reset", "--config", config])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Removed 2 pairings:"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("\(Self.admin) (admin)"))
        #expect(result.standardOutput.contains("\(Self.user)\n"))
        #expect(result.standardOutput.contains("Start the bridge"))
        // The pairings are gone; the identity, the setup id and the accessory ids stay; the file stays private.
        let after = try HomeKitStore(path: file)
        #expect(after.pairings.isEmpty)
        #expect(after.setupID == before.setupID && after.deviceID == before.deviceID)
        #expect(after.accessoryID(for: "zwave:2") == 2)
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
        #expect(chmod(file, 0o600) == 0)
        result = try await homekit(["reset", "--config", config])
        #expect(result.status == 1)
        #expect(result.standardError.contains("HomeKit pairing file \(file): not JSON"), "\(result.standardError)")
        #expect(chmod(file, 0o644) == 0)
        result = try await homekit(["--config", config])
        #expect(result.status == 1)
        #expect(result.standardError.contains("chmod 600"), "\(result.standardError)")
    }

    /// While the bridge runs (its HomeKit port answers), reset is refused: the running bridge would write its
    /// pairings back.
    @Test func resetIsRefusedWhileTheBridgeRuns() async throws {
        let directory = try TemporaryDirectory(prefix: "homekit-cli")
        defer { directory.remove() }
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 4) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        #expect(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let config = try directory.write(
            "devices.toml",
            """
            [bridge]
            name = "living"

            [homekit]
            enabled = true
            port = \(port)
            setup_code = "\(Self.setupCode)"
            pairing_file = "\(directory.file("pairings.json"))"

            """)
        let store = try Self.pairingFile(in: directory)
        let result = try await homekit(["reset", "--config", config])
        #expect(result.status == 1)
        #expect(result.standardError.contains("stop it first"), "\(result.standardError)")
        #expect(try HomeKitStore(path: store.path).pairings.count == 2, "nothing removed")
    }
}
