import BridgeCore
import Foundation
import TestSupport
import Testing

/// `[homekit]`: off unless enabled, the defaults (name, port, pairing file in the state directory), the setup code
/// inline (checked with the HAP rules) or in a private file, and the problems with their key paths.
@Suite struct HomeKitConfigurationTests {
    func text(_ homekit: String, zwave: String = "") -> String {
        "[bridge]\nname = \"living\"\n\n" + zwave + "[homekit]\n" + homekit
    }

    func load(_ homekit: String, zwave: String = "") throws(ConfigurationError) -> BridgeConfiguration {
        try ConfigurationLoader.parse(text: text(homekit, zwave: zwave))
    }

    /// The problems, as `line: key path: message`.
    func problems(_ homekit: String) -> [String] {
        do {
            _ = try load(homekit)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func noSectionIsNoHomeKit() throws {
        #expect(try ConfigurationLoader.parse(text: "[bridge]\nname = \"living\"\n").homeKit == nil)
    }

    @Test func anEmptySectionIsOffWithTheDefaults() throws {
        let section = try #require(try load("").homeKit)
        #expect(!section.enabled)
        #expect(section.name == "Thuis living")
        #expect(section.port == 51827)
        #expect(section.setupCode == nil)
        #expect(section.pairingFile == "/var/lib/thuis-bridge/homekit.json")
    }

    @Test func anEnabledSectionWithACodeAndTheZWaveStateDirectory() throws {
        let zwave = "[zwave]\nport = \"/dev/zwave\"\nstate_dir = \"/srv/thuis/\"\n\n"
        let section = try #require(
            try load("enabled = true\nname = \"Huis\"\nport = 51900\nsetup_code = \"031-45-154\"\n", zwave: zwave)
                .homeKit)
        #expect(section.enabled)
        #expect(section.name == "Huis")
        #expect(section.port == 51900)
        #expect(section.setupCode == .inline(digits: "03145154"))
        #expect(try section.setupCode?.read() == "031-45-154")
        #expect(section.pairingFile == "/srv/thuis/homekit.json")
        let file = try #require(
            try load("enabled = true\nsetup_code = \"031-45-154\"\npairing_file = \"/x/p.json\"\n").homeKit)
        #expect(file.pairingFile == "/x/p.json")
    }

    @Test(arguments: ["111-11-111", "123-45-678", "876-54-321", "000-00-000"])
    func aForbiddenCodeIsRefusedWithItsKeyPath(code: String) {
        let found = problems("enabled = true\nsetup_code = \"\(code)\"\n")
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("6: homekit.setup_code: \(code) is one of the setup codes") == true, "\(found)")
    }

    @Test(arguments: ["03145154", "031-45-15", "031-45-15a", "0314-5-154", ""])
    func aMalformedCodeIsRefused(code: String) {
        #expect(
            problems("setup_code = \"\(code)\"\n") == [
                "5: homekit.setup_code: a setup code is eight digits written XXX-XX-XXX, e.g. 031-45-154"
            ])
    }

    @Test func enabledWithoutACodeAndOtherMistakesAreRefused() {
        #expect(
            problems("enabled = true\n").first?.hasPrefix("4: homekit: an enabled [homekit] needs setup_code") == true)
        #expect(
            problems("setup_code = \"031-45-154\"\nsetup_code_file = \"/etc/c\"\n") == [
                "6: homekit.setup_code_file: use setup_code or setup_code_file, not both"
            ])
        #expect(problems("port = 0\n").first?.hasPrefix("5: homekit.port: ") == true)
        #expect(problems("name = \"\"\n").first?.hasPrefix("5: homekit.name: must be 1-64 characters") == true)
        #expect(problems("enabled = \"yes\"\n").first?.hasPrefix("5: homekit.enabled: ") == true)
        #expect(problems("setupcode = 1\n").first?.hasPrefix("5: homekit.setupcode: unknown key") == true)
    }

    /// The code file is checked at load like the daemon reads it: readable, private, a valid code.
    @Test func theSetupCodeFileIsCheckedAtLoad() throws {
        let directory = try TemporaryDirectory(prefix: "homekit-config")
        defer { directory.remove() }
        let codeFile = directory.file("setup.code")
        let config = try directory.write(
            "devices.toml", text("enabled = true\nsetup_code_file = \"\(codeFile)\"\n"))
        func loadProblems() -> [String] {
            do {
                _ = try ConfigurationLoader.load(path: config)
                return []
            } catch {
                return error.problems.map(\.description)
            }
        }
        #expect(loadProblems().first?.contains("homekit.setup_code_file") == true)
        #expect(loadProblems().first?.contains("cannot be read") == true)
        try directory.write("setup.code", "031-45-154\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: codeFile)
        #expect(loadProblems().first?.contains("its group or others may access it (mode 0644)") == true)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: codeFile)
        #expect(loadProblems().isEmpty)
        let section = try #require(try ConfigurationLoader.load(path: config).homeKit)
        #expect(try section.setupCode?.read() == "031-45-154")
        try Data("123-45-678\n".utf8).write(to: URL(fileURLWithPath: codeFile))
        let forbidden = loadProblems()
        #expect(forbidden.first?.contains("the code in the file is one of the setup codes") == true, "\(forbidden)")
    }
}
