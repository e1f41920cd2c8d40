import FoundationEssentials
internal import SystemSupport
import TOMLKit

/// Reads and validates devices.toml (DEVICES-TOML.md) into a ``BridgeConfiguration``.
///
/// The whole document is walked key by key, so unknown keys (typos) are errors like any other problem, and every
/// problem in the file is reported at once, each with its key path and, where the text shows it, its line.
public enum ConfigurationLoader {
    /// Reads the file at `path` and validates it; also checks the files it names (paths as written, relative
    /// ones from the working directory) the way the daemon uses them when it starts, so that `check-config` and
    /// `run` refuse the same files: the MQTT credential and certificate files are readable (the password file as
    /// UTF-8 text), the Z-Wave network key file and the dashboard's token file hold a key or token that only their
    /// owner may read (``ZWaveNetworkKey/init(contentsOfFile:)``, ``DashboardToken/init(contentsOfFile:)``), so
    /// does the HomeKit setup code file (``HomeKitSetupCodeSetting/read()``),
    /// OpenZWave's device database is a readable directory, and the state directory is a directory or can be
    /// created (no file in its place or its path).
    /// - Throws: ``ConfigurationError`` listing every problem, or naming the file when it cannot be read.
    public static func load(path: String) throws(ConfigurationError) -> BridgeConfiguration {
        let text = try readText(path: path)
        let configuration = try parse(text: text, source: path)
        let lines = SourceLineIndex(text: text)
        let problems =
            unreadableFiles(in: configuration.mqtt, lines: lines)
            + networkKeyProblems(in: configuration.zwave, lines: lines)
            + tokenFileProblems(in: configuration.web, lines: lines)
            + directoryProblems(in: configuration.zwave, lines: lines)
            + setupCodeFileProblems(in: configuration.homeKit, lines: lines)
        guard problems.isEmpty else { throw ConfigurationError(source: path, problems: problems) }
        return configuration
    }

    /// The text before line `line` (1-based), with the line break that ends it. Lines end at LF, as TOML and toml++
    /// count them: a form feed, a vertical tab or a lone CR is no line break there, and a cut at one would start a
    /// line toml++ never sees.
    static func textBefore(line: Int, in text: String) -> String {
        let scalars = text.unicodeScalars
        var remaining = line - 1
        guard remaining > 0 else { return "" }
        for index in scalars.indices where scalars[index] == "\n" {
            remaining -= 1
            if remaining == 0 { return String(scalars[...index]) }
        }
        return text
    }

    /// Validates devices.toml text; touches no file.
    /// - Parameter source: the name problems are reported against (the file name).
    /// - Throws: ``ConfigurationError`` listing every problem.
    public static func parse(text: String, source: String = "devices.toml") throws(ConfigurationError)
        -> BridgeConfiguration
    {
        let diagnostics = ConfigurationDiagnostics(text: text)
        if let nul = text.unicodeScalars.firstIndex(of: "\0") {
            // TOMLKit hands the text to C as a C string: everything after a NUL would be silently ignored. Lines are
            // counted as TOML counts them, ended by LF.
            let line = text.unicodeScalars[..<nul].count { $0 == "\n" } + 1
            diagnostics.report(
                ConfigurationProblem(keyPath: "", message: "the file contains a NUL character", line: line))
            throw ConfigurationError(source: source, problems: diagnostics.sortedProblems)
        }

        if let (problem, startLine) = TOMLPreflight.problem(in: text) {
            // toml++ stops at the first error: report an earlier one from the text before the construct holding
            // the problem (a header, a value, a multi-line string), if any.
            let before = textBefore(line: startLine, in: text)
            diagnostics.report(syntaxProblem(in: before) ?? problem)
            throw ConfigurationError(source: source, problems: diagnostics.sortedProblems)
        }

        let document: TOMLTable
        do {
            document = try TOMLTable(string: text)
        } catch {
            diagnostics.report(syntaxProblem(from: error))
            throw ConfigurationError(source: source, problems: diagnostics.sortedProblems)
        }

        let root = TableReader(
            document, path: "", known: ["bridge", "mqtt", "zwave", "cec", "homeassistant", "web", "homekit"],
            diagnostics: diagnostics)
        let bridge = readBridge(root)
        let mqtt = readMQTT(root)
        let zwave = readZWave(root, prefix: bridge?.prefix)
        let cec = readCEC(root)
        let homeAssistant = readHomeAssistant(root)
        let web = readWeb(root)
        let homeKit = readHomeKit(
            root, bridgeName: bridge?.name,
            stateDirectory: zwave?.section?.stateDirectory ?? ZWaveSection.defaultStateDirectory)
        checkDuplicateAddresses((zwave?.addresses ?? []) + (cec?.addresses ?? []), diagnostics: diagnostics)

        guard diagnostics.problems.isEmpty, let bridge, let mqtt, let homeAssistant else {
            if diagnostics.problems.isEmpty {
                diagnostics.report("", "the configuration is incomplete")  // unreachable: a nil is always reported
            }
            throw ConfigurationError(source: source, problems: diagnostics.sortedProblems)
        }
        return BridgeConfiguration(
            bridge: bridge, mqtt: mqtt, zwave: zwave?.section, cec: cec?.section, homeAssistant: homeAssistant,
            web: web, homeKit: homeKit)
    }

    // MARK: Across sections

    /// Every room/name pair is one device, across Z-Wave and CEC together.
    private static func checkDuplicateAddresses(
        _ all: [Located<DeviceAddress>], diagnostics: ConfigurationDiagnostics
    ) {
        var seen: [DeviceAddress: String] = [:]
        for device in all {
            if let first = seen[device.value] {
                diagnostics.report(
                    ConfigurationKeyPath.appending("name", to: device.path),
                    "duplicate: \(device.value) is already used by \(first)")
            } else {
                seen[device.value] = device.path
            }
        }
    }

    // MARK: Syntax

    /// The parse error of `text`, or `nil` when it parses. Only for text that passed ``TOMLPreflight``.
    private static func syntaxProblem(in text: String) -> ConfigurationProblem? {
        do {
            _ = try TOMLTable(string: text)
            return nil
        } catch {
            return syntaxProblem(from: error)
        }
    }

    private static func syntaxProblem(from error: any Error) -> ConfigurationProblem {
        guard let error = error as? TOMLParseError else {
            return ConfigurationProblem(keyPath: "", message: "TOML syntax: \(error)")
        }
        let position = error.source.begin
        return ConfigurationProblem(
            keyPath: "", message: "TOML syntax: \(error.description)", line: position.line > 0 ? position.line : nil,
            column: position.column > 0 ? position.column : nil)
    }

    // MARK: Files

    private static func readText(path: String) throws(ConfigurationError) -> String {
        do {
            return try readTextFile(path)
        } catch {
            throw ConfigurationError(
                source: path,
                problems: [
                    ConfigurationProblem(keyPath: "", message: "cannot read the configuration file: \(error)")
                ])
        }
    }

    /// What is wrong with `[zwave] network_key_file` (the same check the daemon makes when it reads the key).
    private static func networkKeyProblems(in zwave: ZWaveSection?, lines: SourceLineIndex) -> [ConfigurationProblem] {
        guard let file = zwave?.networkKeyFile else { return [] }
        do {
            _ = try ZWaveNetworkKey(contentsOfFile: file)
            return []
        } catch {
            let keyPath = "zwave.network_key_file"
            return [
                ConfigurationProblem(
                    keyPath: keyPath, message: "\(TableReader.quoted(file)): \(error)", line: lines.line(of: keyPath))
            ]
        }
    }

    /// What is wrong with the `[web]` token files (the same check the daemon makes when it reads the tokens), and a
    /// control token equal to the admin token when either comes from a file (two inline ones are compared when the
    /// text is parsed): with one token for both roles the wall tablet would be admin.
    private static func tokenFileProblems(in web: WebSection?, lines: SourceLineIndex) -> [ConfigurationProblem] {
        var problems: [ConfigurationProblem] = []
        var tokens: [DashboardToken?] = []
        for setting in [web?.adminToken, web?.controlToken] {
            guard let setting else {
                tokens.append(nil)
                continue
            }
            do {
                tokens.append(try setting.read())
            } catch {
                tokens.append(nil)
                // Only a file can fail to be read: an inline token was checked when the text was parsed.
                let file = if case .file(let file) = setting.source { file } else { setting.key }
                problems.append(
                    ConfigurationProblem(
                        keyPath: setting.keyPath, message: "\(TableReader.quoted(file)): \(error)",
                        line: lines.line(of: setting.keyPath)))
            }
        }
        if let admin = web?.adminToken, let control = web?.controlToken, let adminToken = tokens[0],
            tokens[1] == adminToken
        {
            problems.append(
                ConfigurationProblem(
                    keyPath: control.keyPath,
                    message: "the control token must differ from the admin token (\(admin.keyPath)): with one token "
                        + "for both the wall tablet would be admin",
                    line: lines.line(of: control.keyPath)))
        }
        return problems
    }

    private static func unreadableFiles(in mqtt: MQTTSection, lines: SourceLineIndex) -> [ConfigurationProblem] {
        var problems: [ConfigurationProblem] = []
        if let file = mqtt.passwordFile {
            do {
                _ = try MQTTSection.password(fromFile: file)
            } catch {
                let keyPath = "mqtt.password_file"
                problems.append(
                    ConfigurationProblem(
                        keyPath: keyPath, message: "cannot read \(TableReader.quoted(file)): \(error)",
                        line: lines.line(of: keyPath)))
            }
        }
        let files: [(String, String?)] = [
            ("mqtt.ca_file", mqtt.caFile), ("mqtt.cert_file", mqtt.certFile), ("mqtt.key_file", mqtt.keyFile),
        ]
        return problems
            + files.compactMap { keyPath, file in
                guard let file, !FileManager.default.isReadableFile(atPath: file) else { return nil }
                return ConfigurationProblem(
                    keyPath: keyPath, message: "cannot read \(TableReader.quoted(file))",
                    line: lines.line(of: keyPath))
            }
    }

    /// What is wrong with `[zwave] config_path` (OpenZWave's device database, which the daemon reads and links
    /// from when it starts) and `[zwave] state_dir` (which it creates when missing).
    private static func directoryProblems(in zwave: ZWaveSection?, lines: SourceLineIndex) -> [ConfigurationProblem] {
        guard let zwave else { return [] }
        var problems: [ConfigurationProblem] = []
        func report(_ keyPath: String, _ path: String, _ why: String) {
            problems.append(
                ConfigurationProblem(
                    keyPath: keyPath, message: "\(TableReader.quoted(path)): \(why)", line: lines.line(of: keyPath)))
        }
        let files = FileManager.default
        var isDirectory = false
        if !files.fileExists(atPath: zwave.configPath, isDirectory: &isDirectory) {
            report("zwave.config_path", zwave.configPath, "no such directory (OpenZWave's device database)")
        } else if !isDirectory {
            report("zwave.config_path", zwave.configPath, "not a directory (OpenZWave's device database)")
        } else if !files.isReadableFile(atPath: zwave.configPath) {
            report("zwave.config_path", zwave.configPath, "cannot read this directory")
        }
        // The state directory is created when missing (the systemd unit's StateDirectory does it for the service):
        // only a file in its place, or in its path, makes that impossible.
        var path = zwave.stateDirectory
        while !path.isEmpty {
            if files.fileExists(atPath: path, isDirectory: &isDirectory) {
                if !isDirectory {
                    let what = path == zwave.stateDirectory ? "" : "\(TableReader.quoted(path)) is "
                    report("zwave.state_dir", zwave.stateDirectory, what + "not a directory")
                }
                break
            }
            let parent = Path.parent(path)
            if parent == path { break }
            path = parent
        }
        return problems
    }
}

/// A value read from devices.toml together with the key path it was read at (for cross-entry checks).
struct Located<Value> {
    let path: String
    let value: Value
}
