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
    /// How many events may wait for the consumer of `events` (older ones are dropped beyond, and logged).
    public var eventBufferSize: Int
    /// OpenZWave rewrites the whole network cache each time a node's queries complete (50 writes of the full
    /// file for 50 nodes, on the thread that serves the stick). With this set, those writes wait until the
    /// awake nodes are queried (or `cacheWriteDeferralLimit` has passed): then the cache is written once.
    public var deferCacheWrites = true
    public var cacheWriteDeferralLimit: Duration = .seconds(300)
    /// OpenZWave keeps a copy of each node's part of the network cache for as long as the node exists (about
    /// 0.2 MB per node), but needs it only until the node's queries move past loading from the cache. With this
    /// set, the copies are freed as nodes get ready (`zw_release_node_cache_copies`).
    public var releaseNodeCacheCopies = true
    /// A network-cache write builds the whole network as an XML document in memory (some 15 MB for 50 nodes) and
    /// frees it; with this set, the freed pages go back to the kernel right after (`zw_set_trim_after_cache_write`).
    public var trimHeapAfterCacheWrite = true

    public init(
        port: String, userPath: String, configPath: String = "/etc/openzwave",
        openZWaveLogLevel: ZWaveLogLevel? = nil, retryTimeout: Duration = .seconds(10),
        pollInterval: Duration = .seconds(30), saveConfiguration: Bool = true,
        readyTimeout: Duration = .seconds(10), restartBackoff: Duration = .seconds(1),
        maxRestartBackoff: Duration = .seconds(30), eventBufferSize: Int = 4096, networkKey: ZWaveNetworkKey? = nil
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
        self.eventBufferSize = eventBufferSize
        self.networkKey = networkKey
    }
}
