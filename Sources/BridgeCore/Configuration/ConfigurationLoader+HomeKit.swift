internal import SystemSupport

extension ConfigurationLoader {
    static let homeKitKeys = ["enabled", "name", "port", "setup_code", "setup_code_file", "pairing_file"]

    /// `[homekit]`: nil when the section is absent or invalid (its problems are reported). `stateDirectory` is
    /// where the pairing file goes by default (`[zwave] state_dir`, else the default state directory).
    static func readHomeKit(_ root: TableReader, bridgeName: String?, stateDirectory: String) -> HomeKitSection? {
        guard root.contains("homekit") else { return nil }
        guard let table = root.table("homekit", known: homeKitKeys) else { return nil }
        var valid = true
        let enabled = table.contains("enabled") ? table.bool("enabled") : false
        if enabled == nil { valid = false }
        var name = HomeKitSection.defaultName(bridge: bridgeName ?? "")
        if let text = table.string("name") {
            if text.isEmpty || text.count > HomeKitSection.maximumNameLength
                || text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            {
                table.report(
                    "name",
                    "must be 1-\(HomeKitSection.maximumNameLength) characters without control characters "
                        + "(got \(TableReader.quoted(text)))")
                valid = false
            }
            name = text
        } else if table.contains("name") {
            valid = false
        }
        let port = table.contains("port") ? table.int("port", in: 1...65_535) : HomeKitSection.defaultPort
        if port == nil { valid = false }
        let setupCode = readSetupCode(table, valid: &valid)
        if valid, enabled == true, setupCode == nil {
            table.reportTable(
                "an enabled [homekit] needs setup_code (XXX-XX-XXX) or setup_code_file: the code the Home app asks "
                    + "for when pairing")
            valid = false
        }
        var pairingFile = Path.join(stateDirectory, HomeKitSection.defaultPairingFileName)
        if let file = table.nonEmptyString("pairing_file") {
            pairingFile = file
        } else if table.contains("pairing_file") {
            valid = false
        }
        guard valid, let enabled, let port else { return nil }
        return HomeKitSection(
            enabled: enabled, name: name, port: port, setupCode: setupCode, pairingFile: pairingFile)
    }

    /// `setup_code` (checked here) or `setup_code_file` (checked by `load`), not both.
    private static func readSetupCode(_ table: TableReader, valid: inout Bool) -> HomeKitSetupCodeSetting? {
        if table.contains("setup_code") && table.contains("setup_code_file") {
            table.report("setup_code_file", "use setup_code or setup_code_file, not both")
            valid = false
            return nil
        }
        if let text = table.string("setup_code") {
            do {
                return .inline(digits: try HomeKitSetupCodeRules.digits(of: text))
            } catch {
                table.report("setup_code", error.description)
                valid = false
                return nil
            }
        } else if table.contains("setup_code") {
            valid = false
            return nil
        }
        if let file = table.nonEmptyString("setup_code_file") { return .file(file) }
        if table.contains("setup_code_file") { valid = false }
        return nil
    }

    /// What is wrong with `[homekit] setup_code_file` (the same check the daemon makes when it reads the code).
    static func setupCodeFileProblems(in homeKit: HomeKitSection?, lines: SourceLineIndex) -> [ConfigurationProblem] {
        guard let setting = homeKit?.setupCode, case .file(let file) = setting else { return [] }
        do {
            _ = try setting.read()
            return []
        } catch {
            return [
                ConfigurationProblem(
                    keyPath: setting.keyPath, message: "\(TableReader.quoted(file)): \(error)",
                    line: lines.line(of: setting.keyPath))
            ]
        }
    }
}
