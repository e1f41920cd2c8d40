public import BridgeCore

/// How the driver starts OpenZWave and supervises the stick.
public struct ZWaveDriverConfiguration: Sendable {
    /// The serial port of the stick, e.g. `/dev/zwave`.
    public var port: String
    /// OpenZWave's device database (Debian: `/etc/openzwave`).
    public var configPath: String
    /// The bridge's `state_dir`: OpenZWave writes `ozwcache_<home>.xml` there, which speeds restarts up.
    /// Created if missing.
    public var userPath: String
    /// OpenZWave lines at this level or more severe reach the logger; `nil`: derived from the logger's level.
    public var openZWaveLogLevel: ZWaveLogLevel?
    /// `RetryTimeout`: how long OpenZWave waits for an answer before dropping a message.
    public var retryTimeout: Duration
    /// `PollInterval`. Nothing is polled unless a value is explicitly enabled for polling (never, here).
    public var pollInterval: Duration
    /// `SaveConfiguration`: write the network cache when the driver is removed.
    public var saveConfiguration: Bool
    /// Watchdog: the driver must be ready this long after it was added, or it is removed and re-added.
    public var readyTimeout: Duration
    /// First wait before re-adding a driver after a failure; doubles per attempt up to `maxRestartBackoff`.
    public var restartBackoff: Duration
    public var maxRestartBackoff: Duration
    /// OpenZWave's `NetworkKey` (S0 security); `nil`: none, and `secure` inclusion is refused by the backend.
    public var networkKey: ZWaveNetworkKey?
    /// Apply the bridge's patches of OpenZWave (``LibraryPatches``) when the running library is the version they
    /// were written for (`[zwave] openzwave_patches`). False: OpenZWave runs as shipped.
    public var libraryPatches = true
    /// The OpenZWave version the patches were written for; the gate compares the running library's own version with
    /// it. Tests set another to see the gate refuse.
    public var patchesWrittenFor = LibraryPatches.writtenFor
    /// While the patches are applied, the cache writes OpenZWave starts itself wait at most this long for the
    /// network to be queried (then the bridge writes the cache once).
    public var cacheWriteDeferralLimit: Duration = .seconds(300)

    public init(
        port: String, userPath: String, configPath: String = "/etc/openzwave",
        openZWaveLogLevel: ZWaveLogLevel? = nil, retryTimeout: Duration = .seconds(10),
        pollInterval: Duration = .seconds(30), saveConfiguration: Bool = true,
        readyTimeout: Duration = .seconds(10), restartBackoff: Duration = .seconds(1),
        maxRestartBackoff: Duration = .seconds(30), networkKey: ZWaveNetworkKey? = nil
    ) {
        self.port = port
        self.userPath = userPath
        self.configPath = configPath
        self.openZWaveLogLevel = openZWaveLogLevel
        self.retryTimeout = retryTimeout
        self.pollInterval = pollInterval
        self.saveConfiguration = saveConfiguration
        self.readyTimeout = readyTimeout
        self.restartBackoff = restartBackoff
        self.maxRestartBackoff = maxRestartBackoff
        self.networkKey = networkKey
    }
}
