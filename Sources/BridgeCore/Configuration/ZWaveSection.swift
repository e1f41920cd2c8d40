/// `[zwave]`: the Z-Wave stick, OpenZWave's files, and the mapped nodes and scenes.
public struct ZWaveSection: Sendable, Equatable {
    /// `port`: the stick's serial device, e.g. `/dev/zwave` (required).
    public var port: String
    /// `config_path`: OpenZWave's device database; default `/etc/openzwave`.
    public var configPath: String
    /// `state_dir`: OpenZWave's network cache and the bridge's state; default `/var/lib/thuis-bridge`.
    public var stateDirectory: String
    /// `log_level`: OpenZWave's own log level; default warning.
    public var logLevel: OpenZWaveLogLevel
    /// `refresh_after_set`: let OpenZWave send its verifying Get after every dimmer Set. Default false: the
    /// bridge points OpenZWave at a private view of the device database with `NoRefreshAfterSet` for devices
    /// that report their own level (the FGD212), halving the radio traffic of a `/set`.
    public var refreshAfterSet: Bool
    /// `openzwave_patches`: apply the bridge's patches of OpenZWave (`ZWaveDriver`'s `LibraryPatches`) when the
    /// running library is the version they were written for. Default true; false runs OpenZWave exactly as shipped
    /// (for troubleshooting, and to compare).
    public var openZWavePatches: Bool
    /// `network_key_file`: the file holding the Z-Wave network key (S0), readable only by the bridge's user;
    /// without it `secure` inclusion is refused. The file is checked by `ConfigurationLoader.load` and read by
    /// the daemon (`ZWaveNetworkKey(contentsOfFile:)`); the key itself is never part of the configuration.
    public var networkKeyFile: String?
    /// `ping_silent_after`: seconds after which a silent mains-powered node gets one NoOperation frame; no ACK marks
    /// it dead. Default 600; 0 turns it off.
    public var pingSilentAfter: Int = ZWaveSection.defaultPingSilentAfter
    /// `low_battery`: a battery below this many percent is low (its `battery_low` is `on`, a `low_battery` event
    /// reports the crossing). Default 20; 0 never calls a battery low. A node's own low-battery warning (Battery
    /// Report 0xFF) reads as 0 %, low at any threshold above 0.
    public var lowBattery: Int = ZWaveSection.defaultLowBattery
    /// `[[zwave.device]]`, in file order.
    public var devices: [ZWaveDeviceConfig]
    /// `[[zwave.scene]]`, in file order.
    public var scenes: [ZWaveSceneConfig]
    /// `[[zwave.button]]`, in file order.
    public var buttons: [ZWaveButtonConfig] = []

    public static let defaultConfigPath = "/etc/openzwave"
    public static let defaultStateDirectory = "/var/lib/thuis-bridge"
    public static let defaultPingSilentAfter = 600
    /// The longest `ping_silent_after`: a day.
    public static let pingSilentAfterRange = 0...86_400
    public static let defaultLowBattery = 20
    public static let lowBatteryRange = 0...100

    public init(
        port: String, configPath: String = ZWaveSection.defaultConfigPath,
        stateDirectory: String = ZWaveSection.defaultStateDirectory, logLevel: OpenZWaveLogLevel = .warning,
        refreshAfterSet: Bool = false, openZWavePatches: Bool = true, networkKeyFile: String? = nil,
        devices: [ZWaveDeviceConfig] = [],
        scenes: [ZWaveSceneConfig] = []
    ) {
        self.port = port
        self.configPath = configPath
        self.stateDirectory = stateDirectory
        self.logLevel = logLevel
        self.refreshAfterSet = refreshAfterSet
        self.openZWavePatches = openZWavePatches
        self.networkKeyFile = networkKeyFile
        self.devices = devices
        self.scenes = scenes
    }
}
