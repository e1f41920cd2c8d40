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

    public init(
        bridge: BridgeSection, mqtt: MQTTSection = MQTTSection(), zwave: ZWaveSection? = nil,
        cec: CECSection? = nil, homeAssistant: HomeAssistantSection = HomeAssistantSection()
    ) {
        self.bridge = bridge
        self.mqtt = mqtt
        self.zwave = zwave
        self.cec = cec
        self.homeAssistant = homeAssistant
    }

    /// The topic names of this bridge instance.
    public var topics: TopicScheme { TopicScheme(prefix: bridge.prefix, bridge: bridge.name) }
}
