import BridgeCore
import Foundation
import SystemSupport
import TestSupport
import Testing

/// Broken devices.toml files: each must be refused with the right key path (and line), never crash, and report
/// every problem at once.
///
/// Where the text is the point (syntax, types as written, unknown keys, expected line numbers) it is written out,
/// after `bridge`: two lines, which those line numbers count. Out-of-range or clashing values come from
/// `ConfigFixture`.
@Suite struct BrokenConfigurationTests {
    static let bridge = ConfigFixture(name: "living").text

    /// The problems `text` is refused with; records an issue when it is accepted.
    func problems(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [ConfigurationProblem] {
        do {
            _ = try ConfigurationLoader.parse(text: text, source: "devices.toml")
            Issue.record("the configuration was accepted", sourceLocation: sourceLocation)
            return []
        } catch {
            #expect(error.source == "devices.toml", sourceLocation: sourceLocation)
            return error.problems
        }
    }

    func keyPaths(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        problems(text, sourceLocation: sourceLocation).map(\.keyPath)
    }

    @Test func syntaxErrorCarriesLineAndColumn() throws {
        let found = problems(Self.bridge + "[mqtt]\nhost = \"x\"\nport = = 1883\n")
        let problem = try #require(found.first)
        #expect(found.count == 1)
        #expect(problem.keyPath == "")
        #expect(problem.line == 5)
        #expect(problem.column != nil)
        #expect(problem.message.hasPrefix("TOML syntax:"))
        #expect(ConfigurationError(source: "devices.toml", problems: found).description.hasPrefix("devices.toml:5:"))
    }

    @Test func redefinedTableIsASyntaxError() {
        let found = problems(Self.bridge + "[mqtt]\nport = 1\n[mqtt]\nport = 2\n")
        #expect(found.map(\.keyPath) == [""])
        #expect(found.first?.line == 5)
    }

    @Test func unknownKeyIsReportedWithSuggestionAndLine() throws {
        let found = problems(Self.bridge + "[mqtt]\nhost = \"broker\"\nprot = 1883\n")
        let problem = try #require(found.first)
        #expect(found.count == 1)
        #expect(problem.keyPath == "mqtt.prot")
        #expect(problem.line == 5)
        #expect(problem.message == "unknown key; did you mean \"port\"?")
    }

    @Test func unknownKeysAnywhereAreReported() {
        let text =
            Self.bridge + """
                colour = "blue"
                [zwave]
                port = "/dev/zwave"
                [[zwave.device]]
                node = 2
                room = "bedroom"
                name = "light"
                dimmer = true
                [cec]
                [[cec.device]]
                address = 0
                room = "living"
                name = "tv"
                input = { appletv = "1.0.0.0" }
                """
        #expect(keyPaths(text) == ["bridge.colour", "zwave.device[0].dimmer", "cec.device[0].input"])
        #expect(problems(text).last?.message == "unknown key; did you mean \"inputs\"?")
    }

    @Test func unknownSectionIsReported() throws {
        let found = problems(Self.bridge + "[zwaev]\nport = \"/dev/zwave\"\n")
        let problem = try #require(found.first)
        #expect(found.count == 1)
        #expect(problem.keyPath == "zwaev")
        #expect(problem.line == 3)
        #expect(problem.message == "unknown section; did you mean \"zwave\"?")
        #expect(keyPaths(Self.bridge + "[[devices]]\nnode = 2\n") == ["devices"])
    }

    /// A key's line is TOML's: lines end at LF (or CRLF) only. A Unicode line or paragraph separator, or a next-line
    /// character, is text that a comment or a string may hold.
    @Test func linesAreCountedAtLineFeedsOnly() throws {
        let text = Self.bridge + "# a\u{2028}b\u{2029}c\u{85}d\r\n[zwaev]\nport = \"/dev/zwave\"\n"
        let problem = try #require(problems(text).first)
        #expect(problem.keyPath == "zwaev")
        #expect(problem.line == 4)
    }

    @Test func missingRequiredKeysAreReportedAtTheirTable() {
        let text =
            Self.bridge + """
                [zwave]
                port = "/dev/zwave"
                [[zwave.device]]
                node = 2
                room = "bedroom"
                name = "light"
                [[zwave.device]]
                node = 3
                name = "lamp"
                [[zwave.scene]]
                scene = 26
                [cec]
                [[cec.device]]
                room = "living"
                """
        let found = problems(text)
        #expect(
            Set(found.map(\.keyPath)) == [
                "zwave.device[1].room", "zwave.scene[0].node", "zwave.scene[0].topic", "zwave.scene[0].payload",
                "cec.device[0].address", "cec.device[0].name",
            ])
        #expect(found.first { $0.keyPath == "zwave.device[1].room" }?.line == 9)
        #expect(found.allSatisfy { $0.message.hasPrefix("missing (required)") })
        #expect(keyPaths("[mqtt]\nport = 1883\n") == ["bridge"])
        #expect(keyPaths("[bridge]\nprefix = \"Thuis\"\n") == ["bridge.name"])
        #expect(keyPaths(Self.bridge + "[zwave]\nstate_dir = \"/tmp\"\n") == ["zwave.port"])
    }

    @Test func badNameCharactersAreRefusedEverywhere() throws {
        let text = """
            [bridge]
            name = "living/room"
            prefix = "Thuis/#"
            [zwave]
            port = "/dev/zwave"
            [[zwave.device]]
            node = 2
            room = "bedroom"
            name = "light"
            [[zwave.device]]
            node = 3
            room = "living room"
            name = "lamp+"
            [cec]
            [[cec.device]]
            address = 0
            room = "unassigned"
            name = ""
            """
        let found = problems(text)
        #expect(
            found.map(\.keyPath) == [
                "bridge.name", "bridge.prefix", "zwave.device[1].room", "zwave.device[1].name", "cec.device[0].room",
                "cec.device[0].name",
            ])
        let room = try #require(found.first { $0.keyPath == "zwave.device[1].room" })
        #expect(room.line == 12)
        #expect(
            room.formatted(source: "devices.toml")
                == "devices.toml:12: zwave.device[1].room: must match [A-Za-z0-9_-]+ (got \"living room\")")
        #expect(found.first { $0.keyPath == "cec.device[0].room" }?.message.contains("reserved") == true)
    }

    @Test(arguments: ["Thuis/", "/Thuis", "Thuis//x", "Thu is", "Thuis/+", "$SYS", ""])
    func badPrefixesAreRefused(prefix: String) {
        #expect(keyPaths(ConfigFixture(prefix: prefix).text) == ["bridge.prefix"])
    }

    @Test func duplicateRoomAndNameAcrossZWaveAndCEC() throws {
        let text =
            Self.bridge + """
                [zwave]
                port = "/dev/zwave"
                [[zwave.device]]
                node = 2
                room = "living"
                name = "tv"
                [[zwave.device]]
                node = 4
                room = "living"
                name = "main"
                [[zwave.device]]
                node = 5
                room = "living"
                name = "main"
                [cec]
                [[cec.device]]
                address = 0
                room = "living"
                name = "tv"
                """
        let found = problems(text)
        #expect(found.map(\.keyPath) == ["zwave.device[2].name", "cec.device[0].name"])
        #expect(found[0].message == "duplicate: living/main is already used by zwave.device[1]")
        #expect(found[1].message == "duplicate: living/tv is already used by zwave.device[0]")
        #expect(found[1].line == 21)
    }

    @Test func duplicateRoomAndNameIsFoundEvenInAnotherwiseBrokenDevice() {
        let text = ConfigFixture(
            zwave: .init(devices: [.init(node: 300, room: "living", name: "tv")]),
            cec: .init(devices: [.init(address: 0, room: "living", name: "tv")])
        ).text
        #expect(keyPaths(text) == ["zwave.device[0].node", "cec.device[0].name"])
    }

    @Test func duplicateNodeAndInstance() {
        let text =
            Self.bridge + """
                [zwave]
                port = "/dev/zwave"
                [[zwave.device]]
                node = 3
                instance = 4
                room = "living"
                name = "ambilight"
                [[zwave.device]]
                node = 3
                instance = 4
                room = "living"
                name = "ambilight2"
                [[zwave.device]]
                node = 9
                room = "office"
                name = "light"
                [[zwave.device]]
                node = 9
                room = "office"
                name = "lamp"
                [[zwave.device]]
                node = 3
                instance = 5
                room = "living"
                name = "playstation"
                """
        let found = problems(text)
        #expect(found.map(\.keyPath) == ["zwave.device[1].instance", "zwave.device[3].node"])
        #expect(found.first?.message == "duplicate: zwave node 3 instance 4 is already mapped by zwave.device[0]")
        #expect(found.first?.line == 12)
    }

    @Test func badPortValues() {
        #expect(keyPaths(Self.bridge + "[mqtt]\nport = 70000\n") == ["mqtt.port"])
        #expect(keyPaths(Self.bridge + "[mqtt]\nport = 0\n") == ["mqtt.port"])
        let wrongType = problems(Self.bridge + "[mqtt]\nport = \"1883\"\n")
        #expect(wrongType.map(\.keyPath) == ["mqtt.port"])
        #expect(wrongType.first?.message == "must be an integer (got string \"1883\")")
        #expect(
            problems(Self.bridge + "[mqtt]\nport = 70000\n").first?.message
                == "must be between 1 and 65535 (got 70000)")
        #expect(keyPaths(Self.bridge + "[mqtt]\nport = 1883.5\n") == ["mqtt.port"])
        #expect(keyPaths(Self.bridge + "[mqtt]\nhost = \"\"\n") == ["mqtt.host"])
        #expect(keyPaths(Self.bridge + "[zwave]\nport = 5\n") == ["zwave.port"])
        #expect(keyPaths(Self.bridge + "[zwave]\nport = \"\"\n") == ["zwave.port"])
    }

    @Test func mqttCredentialRules() {
        #expect(keyPaths(ConfigFixture(mqtt: .init(passwordFile: "/p")).text) == ["mqtt.password_file"])
        #expect(keyPaths(ConfigFixture(mqtt: .init(certFile: "/c")).text) == ["mqtt.cert_file"])
        #expect(keyPaths(ConfigFixture(mqtt: .init(keyFile: "/k")).text) == ["mqtt.key_file"])
        #expect(
            problems(ConfigFixture(mqtt: .init(certFile: "/c")).text).first?.message
                == "requires key_file (a client certificate needs both)")
        // `run` cannot use a client certificate without TLS: check-config refuses it too.
        let withoutCA = problems(Self.bridge + "[mqtt]\ncert_file = \"/c\"\nkey_file = \"/k\"\n")
        #expect(withoutCA.map(\.keyPath) == ["mqtt.cert_file"])
        #expect(withoutCA.first?.message.hasPrefix("requires ca_file") == true)
    }

    @Test func nodeInstanceAndSceneRanges() {
        let zwave = ConfigFixture.ZWave(
            devices: [
                .init(node: 0, room: "a", name: "a"), .init(node: 233, room: "b", name: "b"),
                .init(node: 3, instance: 128, room: "c", name: "c"), .init(node: 3, instance: 0, room: "d", name: "d"),
            ],
            scenes: [.init(node: 2, scene: 256, topic: "Thuis/scene/x", payload: "on")])
        let text = ConfigFixture(zwave: zwave).text
        #expect(
            keyPaths(text) == [
                "zwave.device[0].node", "zwave.device[1].node", "zwave.device[2].instance", "zwave.device[3].instance",
                "zwave.scene[0].scene",
            ])
    }

    @Test func configParametersMustBeNumbersThatFitFourBytes() {
        let text =
            Self.bridge + """
                [zwave]
                port = "/dev/zwave"
                [[zwave.device]]
                node = 2
                room = "bedroom"
                name = "light"
                [zwave.device.config]
                28 = 1
                0 = 1
                256 = 1
                abc = 1
                013 = 1
                29 = 2147483648
                30 = -2147483649
                31 = "on"
                32 = -2147483648
                """
        let found = problems(text)
        #expect(
            Set(found.map(\.keyPath)) == [
                "zwave.device[0].config.0", "zwave.device[0].config.256", "zwave.device[0].config.abc",
                "zwave.device[0].config.013", "zwave.device[0].config.29", "zwave.device[0].config.30",
                "zwave.device[0].config.31",
            ])
        #expect(found.first { $0.keyPath == "zwave.device[0].config.256" }?.line == 12)
        #expect(
            found.first { $0.keyPath == "zwave.device[0].config.29" }?.message
                == "must be between -2147483648 and 2147483647 (got 2147483648)")
    }

    @Test func badCECLogicalAddress() throws {
        let text =
            Self.bridge + """
                [cec]
                [[cec.device]]
                address = 15
                room = "living"
                name = "tv"
                [[cec.device]]
                address = -1
                room = "living"
                name = "avr"
                [[cec.device]]
                address = 5
                room = "living"
                name = "soundbar"
                [[cec.device]]
                address = 5
                room = "living"
                name = "amp"
                """
        let found = problems(text)
        #expect(found.map(\.keyPath) == ["cec.device[0].address", "cec.device[1].address", "cec.device[3].address"])
        #expect(found[0].message == "must be between 0 and 14 (got 15)")
        #expect(found[0].line == 5)
        #expect(found[2].message == "duplicate: logical address 5 is already mapped by cec.device[2]")
    }

    @Test func badPhysicalAddresses() {
        let text =
            Self.bridge + """
                [cec]
                [[cec.device]]
                address = 0
                room = "living"
                name = "tv"
                [cec.device.inputs]
                a = "1.0.0"
                b = "16.0.0.0"
                c = "1.0.2.0"
                d = "f.f.f.f"
                e = 1000
                f = "x.0.0.0"
                g = "+1.0.0.0"
                ok = "3.0.0.0"
                also = "3.0.0.0"
                "apple tv" = "4.0.0.0"
                """
        let found = problems(text)
        #expect(
            Set(found.map(\.keyPath)) == [
                "cec.device[0].inputs.a", "cec.device[0].inputs.b", "cec.device[0].inputs.c", "cec.device[0].inputs.d",
                "cec.device[0].inputs.e", "cec.device[0].inputs.f", "cec.device[0].inputs.g",
                "cec.device[0].inputs.ok", "cec.device[0].inputs.\"apple tv\"",
            ])
        #expect(found.first { $0.keyPath == "cec.device[0].inputs.a" }?.line == 9)
        #expect(found.first { $0.keyPath == "cec.device[0].inputs.\"apple tv\"" }?.line == 18)
    }

    @Test func sceneTopicsMustBePublishable() {
        for topic in ["Thuis/scene/+", "Thuis/#", "", "$SYS/x", "a\u{7}b"] {
            let scene = ConfigFixture.ZWaveScene(node: 2, scene: 26, topic: topic, payload: "on")
            #expect(
                keyPaths(ConfigFixture(zwave: .init(scenes: [scene])).text) == ["zwave.scene[0].topic"],
                "topic \(topic)")
        }
    }

    /// No scene may publish to a bridge's own topics (a request, a response, a state, an event, of any bridge under
    /// the prefix): a control-role dashboard fires scenes and must never run a bridge request through one.
    @Test(arguments: [
        (nil, "Thuis/bridge/living/request/include"), (nil, "Thuis/bridge/kitchen/request/set_config"),
        (nil, "Thuis/bridge/living/response/include"), (nil, "Thuis/bridge/kitchen/state"),
        (nil, "Thuis/bridge/living/event"), (nil, "Thuis/bridge/living/info"),
        ("home/Thuis", "home/Thuis/bridge/other/request/exclude"),
    ])
    func sceneTopicsMayNotBeBridgeTopics(prefix: String?, topic: String) {
        let scene = ConfigFixture.ZWaveScene(node: 2, scene: 26, topic: topic, payload: "{\"transaction\": \"t\"}")
        let found = problems(ConfigFixture(prefix: prefix, zwave: .init(scenes: [scene])).text)
        #expect(found.map(\.keyPath) == ["zwave.scene[0].topic"], "topic \(topic)")
        #expect(found.first?.message.hasPrefix("must not be under \(prefix ?? "Thuis")/bridge/") == true, "\(found)")
    }

    @Test(arguments: [
        (nil, "Thuis/scene/homeTheater"), (nil, "Thuis/bridge"), (nil, "Other/bridge/living/request/include"),
        ("home/Thuis", "Thuis/bridge/living/request/include"), (nil, "Thuis/device/living/lamp/set"),
    ])
    func ordinarySceneTopicsAreAccepted(prefix: String?, topic: String) {
        let scene = ConfigFixture.ZWaveScene(node: 2, scene: 26, topic: topic, payload: "on")
        let text = ConfigFixture(prefix: prefix, zwave: .init(scenes: [scene])).text
        #expect(throws: Never.self, "topic \(topic)") { try ConfigurationLoader.parse(text: text) }
    }

    @Test func wrongTypesAndShapes() {
        #expect(keyPaths("[bridge]\nname = 5\n") == ["bridge.name"])
        #expect(problems("[bridge]\nname = 5\n").first?.message == "must be a string (got integer 5)")
        #expect(keyPaths("bridge = \"living\"\n") == ["bridge"])
        #expect(
            keyPaths(Self.bridge + "[zwave]\nport = \"/dev/zwave\"\n[zwave.device]\nnode = 2\n")
                == ["zwave.device"])
        #expect(
            keyPaths(Self.bridge + "[zwave]\nport = \"/dev/zwave\"\ndevice = [1, 2]\n")
                == ["zwave.device[0]", "zwave.device[1]"])
        #expect(keyPaths(Self.bridge + "[cec]\ncec_rx_events = \"yes\"\n") == ["cec.cec_rx_events"])
        #expect(keyPaths(Self.bridge + "[cec]\ndevice_type = \"tv\"\n") == ["cec.device_type"])
        #expect(keyPaths(Self.bridge + "[cec]\nosd_name = \"A name that is far too long\"\n") == ["cec.osd_name"])
        #expect(keyPaths(Self.bridge + "log_level = \"verbose\"\n") == ["bridge.log_level"])
        #expect(keyPaths(Self.bridge + "[zwave]\nport = \"/dev/zwave\"\nlog_level = \"loud\"\n") == ["zwave.log_level"])
    }

    @Test func multipleProblemsAreReportedAtOnceInDocumentOrder() {
        let text = """
            [bridge]
            name = "living room"
            [mqtt]
            port = 99999
            hots = "x"
            [zwave]
            port = "/dev/zwave"
            [[zwave.device]]
            node = 300
            room = "bedroom"
            [cec]
            [[cec.device]]
            address = 0
            room = "living"
            name = "tv"
            [cec.device.inputs]
            appletv = "1.0"
            """
        let found = problems(text)
        #expect(
            found.map(\.keyPath) == [
                "bridge.name", "mqtt.port", "mqtt.hots", "zwave.device[0].name", "zwave.device[0].node",
                "cec.device[0].inputs.appletv",
            ])
        #expect(found.map(\.line) == [2, 4, 5, 8, 9, 17])
        let description = ConfigurationError(source: "devices.toml", problems: found).description
        #expect(description.split(separator: "\n").count == 6)
        #expect(description.split(separator: "\n").allSatisfy { $0.hasPrefix("devices.toml:") })
    }

    @Test func nulCharacterIsRefused() {
        let found = problems(Self.bridge + "[mqtt]\nhost = \"a\0b\"\n")
        #expect(found.map(\.keyPath) == [""])
        #expect(found.first?.line == 4)
    }

    @Test func unreadableFileNamesTheFile() throws {
        let missing = "/nonexistent/thuis/devices.toml"
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.load(path: missing) }
        do {
            _ = try ConfigurationLoader.load(path: missing)
        } catch {
            #expect(error.description == "\(missing): cannot read the configuration file: no such file")
        }
        do {
            _ = try ConfigurationLoader.load(path: NSTemporaryDirectory())
        } catch {
            #expect(error.description.hasSuffix("it is a directory"))
        }
    }

    @Test func missingCredentialFilesAreReportedByLoad() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("thuis-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("devices.toml")
        let text = ConfigFixture(mqtt: .init(username: "thuis", passwordFile: "\(directory.path)/nope")).text
        try Data(text.utf8).write(to: file)
        do {
            _ = try ConfigurationLoader.load(path: file.path)
            Issue.record("accepted a missing password file")
        } catch {
            #expect(error.problems.map(\.keyPath) == ["mqtt.password_file"])
            #expect(error.problems.first?.line == 5)
        }
        try Data("secret\n".utf8).write(to: directory.appendingPathComponent("nope"))
        #expect(try ConfigurationLoader.load(path: file.path).mqtt.username == "thuis")
    }

    /// A NUL would end the text TOMLKit hands to C: refused, on its line as TOML counts lines (a form feed is not a
    /// line break).
    @Test func aNULCharacterIsRefusedOnItsLine() {
        let found = problems("[bridge]\nname = \"x\u{0C}y\"\r\nprefix = \"a\u{0}\"\n")
        #expect(found.map(\.message) == ["the file contains a NUL character"])
        #expect(found.first?.line == 3)
    }

    /// Inputs on which toml++ 3.4 (inside TOMLKit) hits an assertion instead of reporting an error: refused as
    /// syntax errors before they reach it.
    @Test(arguments: [
        ("[=]", 1, 2), ("[[[a]]]", 1, 3), ("[[[]]", 1, 3), ("[[=", 1, 3), ("[\n", 1, 2), ("[[ \n", 1, 4),
        ("[bridge]\nname = \"x\"\n  [ #", 3, 5), ("a = 1\r\n[\r\n", 2, 2), ("[\u{A0}a]", 1, 2),
    ])
    func headersThatWouldTripTheParserAreSyntaxErrors(text: String, line: Int, column: Int) throws {
        let found = problems(text)
        let problem = try #require(found.first)
        #expect(found.count == 1)
        #expect(problem.keyPath == "")
        #expect(problem.message.hasPrefix("TOML syntax: expected a table name"))
        #expect(problem.line == line)
        #expect(problem.column == column)
    }

    /// The screen must not refuse valid TOML where a `[` starts a line inside a value.
    @Test func bracketsInsideValuesAndStringsAreNotHeaders() throws {
        let text =
            Self.bridge + #"""
                [zwave]
                port = """
                [=] not a header
                """
                [[zwave.scene]]
                node = 2
                scene = 26
                topic = "Thuis/scene/x" # [=
                payload = '[='
                """#
        let zwave = try #require(try ConfigurationLoader.parse(text: text).zwave)
        #expect(zwave.port == "[=] not a header\n")
        #expect(zwave.scenes.first?.payload == "[=")
    }

    /// Mutations of the shipped file (lines dropped, duplicated, bytes changed) never crash the loader.
    @Test func mutatedShippedFileNeverCrashes() throws {
        let shipped = try String(contentsOfFile: ShippedConfigurationTests.shippedPath, encoding: .utf8)
        let lines = shipped.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var generator = SeededRandom(seed: 0x7468_7569_73)
        var refused = 0
        for index in lines.indices {
            var dropped = lines
            dropped.remove(at: index)
            var doubled = lines
            doubled.insert(lines[index], at: index)
            for text in [dropped, doubled].map({ $0.joined(separator: "\n") }) {
                if (try? ConfigurationLoader.parse(text: text)) == nil { refused += 1 }
            }
        }
        let alphabet = Array("[[[]]=\"'.#+/ \n0123456789abcxyz{},-_\\\t\r")
        for _ in 0..<400 {
            var characters = Array(shipped)
            for _ in 0..<Int(generator.next() % 4 + 1) {
                let position = Int(generator.next() % UInt64(characters.count))
                characters[position] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
            }
            if (try? ConfigurationLoader.parse(text: String(characters))) == nil { refused += 1 }
        }
        #expect(refused > 50)
    }
}
