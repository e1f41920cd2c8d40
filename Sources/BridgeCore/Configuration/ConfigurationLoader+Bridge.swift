import Logging

extension ConfigurationLoader {
    /// `[bridge]`: `name` (required), `prefix`, `log_level`.
    static func readBridge(_ root: TableReader) -> BridgeSection? {
        guard root.contains("bridge") else {
            root.report("bridge", "missing (required): a [bridge] section with the bridge's name")
            return nil
        }
        guard let table = root.table("bridge", known: ["name", "prefix", "log_level"]) else { return nil }
        let name = table.level("name", required: true)
        var prefix: String? = BridgeSection.defaultPrefix
        if let value = table.string("prefix") {
            prefix = TopicScheme.isValidPrefix(value) ? value : nil
            if prefix == nil {
                table.report(
                    "prefix",
                    "must be one or more /-separated levels matching [A-Za-z0-9_-]+ "
                        + "(got \(TableReader.quoted(value)))")
            } else if value.utf8.count > TopicScheme.maximumPrefixLength {
                table.report(
                    "prefix",
                    "must be at most \(TopicScheme.maximumPrefixLength) characters (got \(value.utf8.count))")
                prefix = nil
            }
        } else if table.contains("prefix") {
            prefix = nil
        }
        let logLevel = table.contains("log_level") ? table.choice("log_level", Logger.Level.self) : .info
        guard let name, let prefix, let logLevel else { return nil }
        return BridgeSection(name: name, prefix: prefix, logLevel: logLevel)
    }
}
