import Foundation
import IntegrationSupport
import LabSupport
import TestSupport
import Testing

/// Runs the real `thuis-bridge check-config` binary.
@Suite(.endToEnd) struct CheckConfigCommandTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func checkConfig(_ arguments: [String], in directory: URL? = nil) async throws -> BuiltProduct.RunResult {
        try await BuiltProduct.run("thuis-bridge", ["check-config"] + arguments, currentDirectory: directory)
    }

    @Test func shippedFilePassesAndPrintsTheTopicTable() async throws {
        let result = try await checkConfig([Self.repository.appendingPathComponent("devices.toml").path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty)
        let out = result.standardOutput
        #expect(out.contains("devices.toml is valid: bridge \"living\", prefix \"Thuis\""))
        for expected in [
            "bedroom/light", "zwave node 2", "Thuis/device/bedroom/light", "living/ambilight",
            "zwave node 3 instance 4", "Thuis/device/living/ambilight", "living/tv", "cec LA 0",
            "/input/set", "Thuis/scene/homeTheater", "Thuis/bridge/living/state",
            "Thuis/bridge/living/request/<command>", "Thuis/device/+/+/+/set",
        ] {
            #expect(out.contains(expected), "missing \(expected)")
        }
    }

    /// The Home Assistant table marks each Z-Wave device's kind as assumed (the interview tells what a node is);
    /// a CEC device's kind comes from devices.toml and is not marked.
    @Test func zwaveKindsAreMarkedAssumedInTheHomeAssistantTable() async throws {
        let result = try await checkConfig([Self.repository.appendingPathComponent("devices.toml").path])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        guard let header = lines.firstIndex(of: "DEVICE  ENTITIES") else {
            Issue.record("no Home Assistant table in \(result.standardOutput)")
            return
        }
        let table = lines[(header + 1)...].prefix { !$0.isEmpty }
        let light = table.first { $0.hasPrefix("bedroom/light  ") }
        #expect(light?.hasSuffix("(assumed dimmer: the interview tells)") == true, "\(table)")
        let socket = table.first { $0.hasPrefix("living/ambilight  ") }
        #expect(socket?.hasSuffix("(assumed socket: the interview tells)") == true, "\(table)")
        let tv = table.first { $0.hasPrefix("living/tv  ") }
        #expect(tv != nil && tv?.contains("assumed") == false, "\(table)")
    }

    /// `[web]`: check-config prints where the dashboard is served and how it is protected, never the token; a
    /// listen address beyond loopback without a token stops both check-config and run with exit 2 and the key path.
    @Test func theDashboardIsDescribedAndAnOpenPublicOneIsRefused() async throws {
        let directory = try TemporaryDirectory(prefix: "check-config-web")
        defer { directory.remove() }
        let token = "0123456789abcdef0123456789abcdef"
        let guarded = try directory.write(
            "guarded.toml", ConfigFixture(name: "living", web: .init(listen: "0.0.0.0:8080", authToken: token)).text)
        var result = try await checkConfig([guarded])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("dashboard on 0.0.0.0:8080"))
        #expect(
            result.standardOutput.contains(
                "DASHBOARD  http://<this machine's address>:8080/  admin token required ([web] auth_token)"),
            "\(result.standardOutput)")
        #expect(result.standardOutput.contains("/metrics (Prometheus)"))
        #expect(!result.standardOutput.contains(token), "check-config printed the token")

        let open = try directory.write("open.toml", ConfigFixture(name: "living", web: .init()).text)
        result = try await checkConfig([open])
        #expect(
            result.standardOutput.contains("DASHBOARD  http://127.0.0.1:8080/  no token: open to this machine only"))
        let none = try directory.write("none.toml", ConfigFixture(name: "living").text)
        result = try await checkConfig([none])
        #expect(result.standardOutput.contains("DASHBOARD  off (no [web] section)"))

        let exposed = try directory.write(
            "exposed.toml", ConfigFixture(name: "living", web: .init(listen: "0.0.0.0:8080")).text)
        result = try await checkConfig([exposed])
        #expect(result.status == 2)
        #expect(
            result.standardError.contains("exposed.toml:4: web.listen: 0.0.0.0:8080 is reachable beyond this machine"))
        let run = try await BuiltProduct.run("thuis-bridge", ["run", "--config", exposed])
        #expect(run.status == 2)
        #expect(run.standardError.contains("exposed.toml:4: web.listen: 0.0.0.0:8080 is reachable beyond this machine"))

        // A control token alone is refused by both, with its key path.
        let tablet = try directory.write(
            "tablet.toml", ConfigFixture(name: "living", web: .init(controlToken: "tablet-0123456789abcdef")).text)
        result = try await checkConfig([tablet])
        #expect(result.status == 2)
        #expect(result.standardError.contains("tablet.toml:4: web.control_token: a control token needs an admin token"))
        let refused = try await BuiltProduct.run("thuis-bridge", ["run", "--config", tablet])
        #expect(refused.status == 2)
        #expect(
            refused.standardError.contains("tablet.toml:4: web.control_token: a control token needs an admin token"))
        // Both roles: described, neither token printed.
        let roles = try directory.write(
            "roles.toml",
            ConfigFixture(
                name: "living",
                web: .init(listen: "0.0.0.0:8080", adminToken: token, controlToken: "tablet-0123456789abcdef")
            ).text)
        result = try await checkConfig([roles])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("control token ([web] control_token)"), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains(token) && !result.standardOutput.contains("tablet-0123"))
    }

    @Test func defaultFileIsDevicesTomlInTheWorkingDirectory() async throws {
        let result = try await checkConfig([], in: Self.repository)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("devices.toml is valid"))
    }

    @Test func brokenFileExitsTwoListingEveryProblemOnStandardError() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("check-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("broken.toml")
        try Data(
            """
            [bridge]
            name = "living"
            [mqtt]
            prot = 1883
            [zwave]
            port = "/dev/zwave"
            [[zwave.device]]
            node = 2
            room = "living room"
            name = "light"
            """.utf8
        ).write(to: file)

        let result = try await checkConfig([file.path])
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(file.path): 2 problems")
        #expect(lines.contains("\(file.path):4: mqtt.prot: unknown key; did you mean \"port\"?"))
        #expect(
            lines.contains(
                "\(file.path):9: zwave.device[0].room: must match [A-Za-z0-9_-]+ (got \"living room\")"))
    }

    /// `[bridge]` (two lines), and `[zwave]` after it (four lines): the broken text follows.
    static let bridge = ConfigFixture(name: "living").text
    static let zwave = ConfigFixture(name: "living", zwave: .init(port: "/dev/zwave")).text
    /// `living/tv` both a Z-Wave node and a CEC device.
    static let livingTVTwice = ConfigFixture(
        zwave: .init(devices: [.init(node: 2, room: "living", name: "tv")]),
        cec: .init(devices: [.init(address: 0, room: "living", name: "tv")])
    ).text
    /// Node 2 mapped twice.
    static let node2Twice = ConfigFixture(
        zwave: .init(devices: [.init(node: 2, room: "a", name: "b"), .init(node: 2, room: "a", name: "c")])
    ).text

    /// Broken files, each with the key path (or location) that must appear on standard error.
    @Test(
        arguments: [
            ("[bridge]\nname = = 1\n", ":2:"),
            (bridge + "[mqtt]\nprot = 1883\n", ":4: mqtt.prot: unknown key"),
            (bridge + "[zwaev]\n", ":3: zwaev: unknown section"),
            (zwave + "[[zwave.device]]\nnode = 2\nname = \"light\"\n", ":5: zwave.device[0].room: missing"),
            ("[bridge]\nname = \"living room\"\n", ":2: bridge.name: must match"),
            (livingTVTwice, ":13: cec.device[0].name: duplicate: living/tv"),
            (node2Twice, ":10: zwave.device[1].node: duplicate"),
            (bridge + "[mqtt]\nport = 65536\n", ":4: mqtt.port: must be between 1 and 65535"),
            (
                bridge + "[cec]\n[[cec.device]]\naddress = 15\nroom = \"living\"\nname = \"tv\"\n",
                ":5: cec.device[0].address: must be between 0 and 14"
            ),
            (
                bridge + "[cec]\n[[cec.device]]\naddress = 0\nroom = \"living\"\nname = \"tv\"\n"
                    + "[cec.device.inputs]\nappletv = \"1.0.0\"\n",
                ":9: cec.device[0].inputs.appletv: bad physical address"
            ),
            (bridge + "[[[zwave]]]\n", ":3:3: TOML syntax"),
        ] as [(String, String)])
    func brokenFilesExitTwoNamingTheKeyPath(text: String, expected: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("check-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("devices.toml")
        try Data(text.utf8).write(to: file)
        let result = try await checkConfig([file.path])
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains(file.path + expected), "\(result.standardError)")
    }

    @Test func syntaxErrorAndMissingFileExitTwo() async throws {
        let missing = try await checkConfig(["/nonexistent/devices.toml"])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("/nonexistent/devices.toml: cannot read the configuration file"))

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("check-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("devices.toml")
        try Data("[bridge]\nname = \"living\n[[[zwave]]]\n".utf8).write(to: file)
        let syntax = try await checkConfig([file.path])
        #expect(syntax.status == 2)
        #expect(syntax.standardError.contains("\(file.path):2:"))
        #expect(syntax.standardError.contains("TOML syntax"))
    }

    /// `check-config` refuses what `run` refuses: a network key file its group or others may read, or one that
    /// holds no key; both name the key path and line, neither shows the key.
    @Test(arguments: [
        (0o644, "0F1E2D3C4B5A69788796A5B4C3D2E1F0\n", "mode 0644"), (0o600, "0F1E2D\n", "not a network key"),
    ])
    func aBadNetworkKeyFileIsRefusedByCheckConfigAndRun(mode: Int, contents: String, reason: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("check-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("zwave.key")
        try Data(contents.utf8).write(to: key)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: key.path)
        let file = directory.appendingPathComponent("devices.toml")
        let fixture = ConfigFixture(name: "living", zwave: .init(port: "/dev/zwave", networkKeyFile: key.path))
        try Data(fixture.text.utf8).write(to: file)
        let expected = "\(file.path):5: zwave.network_key_file: \""

        let check = try await checkConfig([file.path])
        #expect(check.status == 2)
        #expect(
            check.standardError.contains(expected) && check.standardError.contains(reason), "\(check.standardError)")
        let run = try await BuiltProduct.run("thuis-bridge", ["run", "--config", file.path])
        #expect(run.status == 2)
        #expect(run.standardError.contains(expected) && run.standardError.contains(reason), "\(run.standardError)")
        for output in [check.standardError, run.standardError] {
            #expect(!output.contains(contents.trimmingCharacters(in: .whitespacesAndNewlines)))
        }

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path)
        try Data("0F1E2D3C4B5A69788796A5B4C3D2E1F0\n".utf8).write(to: key)
        let valid = try await checkConfig([file.path])
        #expect(valid.status == 0, "\(valid.standardError)")
    }
}

extension CheckConfigCommandTests {
    /// What `run` needs from the files and directories devices.toml names, and could not start without.
    enum StartupCase: String, CaseIterable, Sendable {
        case passwordNotUTF8, configPathMissing, configPathIsAFile, stateDirIsAFile, stateDirUnderAFile
        case nameTooLong, prefixTooLong

        /// The fixture for this case in `directory`, and the key path both commands must name.
        func fixture(in directory: TemporaryDirectory) throws -> (ConfigFixture, keyPath: String) {
            let file = try directory.write("plain-file", "not a directory\n")
            var fixture = ConfigFixture(name: "living", mqtt: .local(port: 1883))
            var zwave = ConfigFixture.ZWave(port: directory.file("zwave"), stateDirectory: directory.file("state"))
            switch self {
            case .passwordNotUTF8:
                let password = directory.file("password")
                try Data([0x73, 0x65, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: password))
                fixture.mqtt = .init(host: "127.0.0.1", port: 1883, username: "bridge", passwordFile: password)
                return (fixture, "mqtt.password_file")
            case .configPathMissing:
                zwave.configPath = directory.file("no-openzwave")
                fixture.zwave = zwave
                return (fixture, "zwave.config_path")
            case .configPathIsAFile:
                zwave.configPath = file
                fixture.zwave = zwave
                return (fixture, "zwave.config_path")
            case .stateDirIsAFile:
                zwave.stateDirectory = file
                fixture.zwave = zwave
                return (fixture, "zwave.state_dir")
            case .stateDirUnderAFile:
                zwave.stateDirectory = file + "/state"
                fixture.zwave = zwave
                return (fixture, "zwave.state_dir")
            case .nameTooLong:
                // 70,000 characters: the bridge's topics would pass MQTT's limit of 65,535 bytes.
                fixture.name = String(repeating: "a", count: 70_000)
                return (fixture, "bridge.name")
            case .prefixTooLong:
                fixture.prefix = Array(repeating: "p", count: 40_000).joined(separator: "/")
                return (fixture, "bridge.prefix")
            }
        }
    }

    /// `check-config` refuses every configuration `run` cannot start with, naming the key path,
    /// and `run` refuses it the same way (exit 2) before it touches the broker or any hardware; before, these
    /// passed `check-config` and `run` exited 1 (or could not publish its own topics).
    @Test(arguments: StartupCase.allCases)
    func whatRunCannotStartWithCheckConfigRefuses(_ startup: StartupCase) async throws {
        let directory = try TemporaryDirectory(prefix: "check-config")
        defer { directory.remove() }
        let (fixture, keyPath) = try startup.fixture(in: directory)
        let file = try directory.write("devices.toml", fixture.text)
        let check = try await checkConfig([file])
        #expect(check.status == 2, "\(check.standardOutput.prefix(300))")
        #expect(check.standardError.contains(": \(keyPath): "), "\(check.standardError.prefix(600))")
        let run = try await BuiltProduct.run("thuis-bridge", ["run", "--config", file])
        #expect(run.status == 2, "\(run.standardError.suffix(600))")
        #expect(run.standardError.contains(": \(keyPath): "), "\(run.standardError.prefix(600))")
        #expect(!FileManager.default.fileExists(atPath: directory.file("state")), "run created its state directory")
    }

    /// `[homekit]`: check-config describes the section without the setup code; a code HomeKit forbids stops
    /// check-config with exit 2 and the key path.
    @Test func theHomeKitSectionIsShownWithoutItsCodeAndAForbiddenCodeIsRefused() async throws {
        let directory = try TemporaryDirectory(prefix: "check-config-homekit")
        defer { directory.remove() }
        let base = ConfigFixture(name: "living").text + "\n[homekit]\nenabled = true\n"
        let valid = try directory.write("valid.toml", base + "setup_code = \"031-45-154\"\n")
        var result = try await checkConfig([valid])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardOutput.contains(
                "HOMEKIT  \"Thuis living\" on port 51827, setup code in [homekit] setup_code, pairings in "),
            "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("031-45-154"), "check-config printed the setup code")

        let forbidden = try directory.write("forbidden.toml", base + "setup_code = \"123-45-678\"\n")
        result = try await checkConfig([forbidden])
        #expect(result.status == 2)
        #expect(
            result.standardError.contains(
                "homekit.setup_code: 123-45-678 is one of the setup codes the HomeKit specification forbids"),
            "\(result.standardError)")
    }
}
