/// `[homeassistant]`: MQTT discovery for Home Assistant. On by default (the section may be absent);
/// `enabled = false` turns it off.
public struct HomeAssistantSection: Sendable, Equatable {
    /// `enabled`: publish discovery; default true.
    public var enabled: Bool
    /// `prefix`: Home Assistant's discovery prefix; default `homeassistant`.
    public var prefix: String

    public static let defaultPrefix = "homeassistant"

    public init(enabled: Bool = true, prefix: String = HomeAssistantSection.defaultPrefix) {
        self.enabled = enabled
        self.prefix = prefix
    }
}

extension ConfigurationLoader {
    /// `[homeassistant]`: `enabled`, `prefix`; the defaults when the section is absent.
    static func readHomeAssistant(_ root: TableReader) -> HomeAssistantSection? {
        guard root.contains("homeassistant") else { return HomeAssistantSection() }
        guard let table = root.table("homeassistant", known: ["enabled", "prefix"]) else { return nil }
        let enabled = table.contains("enabled") ? table.bool("enabled") : true
        var prefix: String? = HomeAssistantSection.defaultPrefix
        if let value = table.string("prefix") {
            prefix = TopicScheme.isValidPrefix(value) ? value : nil
            if prefix == nil {
                table.report(
                    "prefix",
                    "must be one or more /-separated levels matching [A-Za-z0-9_-]+ (got \(TableReader.quoted(value)))")
            }
        } else if table.contains("prefix") {
            prefix = nil
        }
        guard let enabled, let prefix else { return nil }
        return HomeAssistantSection(enabled: enabled, prefix: prefix)
    }
}
