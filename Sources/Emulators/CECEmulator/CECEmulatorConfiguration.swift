/// How the emulated bus starts: vendors, names, addresses, initial power and volume.
public struct CECEmulatorConfiguration: Sendable {
    /// The TV's vendor id (3-byte OUI). libcec picks vendor-specific handlers from it; the default, Sony
    /// (0x080046), uses libcec's generic handler. Philips (0x00903E) makes cec-client crash on exit.
    public var tvVendorID: UInt32 = CECEmulatorConfiguration.sonyVendorID
    /// The audio system's vendor id; default Yamaha.
    public var audioSystemVendorID: UInt32 = 0x00A0DE
    /// The playback device's vendor id; default Apple.
    public var playbackVendorID: UInt32 = 0x0010FA
    /// Whether the TV starts switched on.
    public var tvPoweredOn = false
    /// Whether the audio system (LA 5) is on the bus.
    public var audioSystemPresent = true
    /// Whether the playback device (LA 4) is on the bus.
    public var playbackPresent = true
    /// The audio system's physical address; default 2.0.0.0.
    public var audioSystemPhysicalAddress: UInt16 = 0x2000
    /// The playback device's physical address; default 1.0.0.0.
    public var playbackPhysicalAddress: UInt16 = 0x1000
    /// OSD names.
    public var tvOSDName = "TV"
    public var audioSystemOSDName = "EmuAVR"
    public var playbackOSDName = "Apple TV"
    /// The audio system's initial volume (0-100) and mute.
    public var volume = 20
    public var muted = false
    /// How much one volume key changes the volume.
    public var volumeStep = 1
    /// The adapter's firmware version and build date (extended-response firmware by default).
    public var firmwareVersion: UInt16 = 12
    public var firmwareBuildDate: UInt32 = 0x5E1B_2C3D

    public static let sonyVendorID: UInt32 = 0x080046
    public static let philipsVendorID: UInt32 = 0x00903E
    public static let samsungVendorID: UInt32 = 0x0000F0
    public static let lgVendorID: UInt32 = 0x00E091

    public init() {}
}
