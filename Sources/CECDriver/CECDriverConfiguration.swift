public import BridgeCore

/// How the driver presents itself and what it opens (from `[cec]`).
public struct CECDriverConfiguration: Sendable {
    /// `auto` (libcec_detect_adapters), `Linux` (kernel CEC, the Pi) or a device path.
    public var port: String
    /// The name the TV shows, at most 14 characters.
    public var osdName: String
    /// Register as a recording (LA 1) or playback (LA 4) device.
    public var deviceType: CECDeviceType
    /// Our physical address; nil lets libcec work it out (HDMI 1 of the TV, 1.0.0.0, on a Pulse-Eight).
    public var physicalAddress: PhysicalAddress?
    /// The `libcec_open` timeout.
    public var openTimeout: Duration = .seconds(10)
    /// After how long without a sign of life (an acknowledged transmission, a frame from the bus, an answered
    /// ping) `run()` pings the adapter (`libcec_ping_adapters`). An unplugged adapter is noticed at once without
    /// it (its port path vanishes; libcec's reads fail); the ping catches one that stays plugged in but stops
    /// answering: with the default 5 s and 2 failures within ~10 s (libcec's own keepalive ping, every 15 s, raises
    /// CONNECTION_LOST after three failures).
    public var pingInterval: Duration = .seconds(5)
    /// After how many failed pings in a row the connection counts as lost.
    public var maximumPingFailures = 2
    /// Reconnect backoff: first wait and cap (doubling in between).
    public var initialBackoff: Duration = .seconds(1)
    public var maximumBackoff: Duration = .seconds(30)
    /// Poll the audio system (LA 5) after each open, so libcec sends volume keys there (not to the TV).
    public var pollAudioSystemOnOpen = true
    /// Which libcec log levels become `.log` events (none by default).
    public var libcecLogLevels: CECLogLevel = []

    public init(
        port: String = "auto", osdName: String = "Thuis", deviceType: CECDeviceType = .recording,
        physicalAddress: PhysicalAddress? = nil
    ) {
        self.port = port
        self.osdName = osdName
        self.deviceType = deviceType
        self.physicalAddress = physicalAddress
    }
}
