public import Logging

/// `[bridge]`: which bridge instance this is and where its topics live.
public struct BridgeSection: Sendable, Equatable {
    /// `name`: the instance name (`[A-Za-z0-9_-]+`), used in `<prefix>/bridge/<name>/...` and the MQTT client id.
    public var name: String
    /// `prefix`: the topic prefix, one or more `/`-separated `[A-Za-z0-9_-]+` levels; default `Thuis`.
    public var prefix: String
    /// `log_level`: trace, debug, info, notice, warning, error or critical; default info.
    public var logLevel: Logger.Level

    public static let defaultPrefix = "Thuis"

    public init(name: String, prefix: String = BridgeSection.defaultPrefix, logLevel: Logger.Level = .info) {
        self.name = name
        self.prefix = prefix
        self.logLevel = logLevel
    }
}
