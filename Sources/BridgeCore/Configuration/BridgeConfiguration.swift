public import Logging

/// A validated devices.toml (see DEVICES-TOML.md). Built by ``ConfigurationLoader``; every value in it has been
/// checked (ranges, characters, duplicates), so the bridge can use it without further validation.
public struct BridgeConfiguration: Sendable, Equatable {
    /// `[bridge]`: instance name, topic prefix, log level.
    public var bridge: BridgeSection
    /// `[mqtt]`: broker connection.
    public var mqtt: MQTTSection
    /// `[zwave]`, or `nil` when this bridge has no Z-Wave stick.
    public var zwave: ZWaveSection?
    /// `[cec]`, or `nil` when this bridge has no CEC adapter.
    public var cec: CECSection?
    /// `[homeassistant]`: discovery, on by default.
    public var homeAssistant: HomeAssistantSection
    /// `[web]`, or `nil` when the daemon serves no dashboard.
    public var web: WebSection?
    /// `[homekit]`, or `nil` when the section is absent (no HomeKit bridge).
    public var homeKit: HomeKitSection?

    public init(
        bridge: BridgeSection, mqtt: MQTTSection = MQTTSection(), zwave: ZWaveSection? = nil,
        cec: CECSection? = nil, homeAssistant: HomeAssistantSection = HomeAssistantSection(), web: WebSection? = nil,
        homeKit: HomeKitSection? = nil
    ) {
        self.bridge = bridge
        self.mqtt = mqtt
        self.zwave = zwave
        self.cec = cec
        self.homeAssistant = homeAssistant
        self.web = web
        self.homeKit = homeKit
    }

    /// The topic names of this bridge instance.
    public var topics: TopicScheme { TopicScheme(prefix: bridge.prefix, bridge: bridge.name) }
}

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
