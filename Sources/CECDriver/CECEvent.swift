public import BridgeCore

/// Something the CEC driver observed. Typed events are derived from received frames; every received frame
/// is also delivered raw as `.frame` (first), for `cec_rx`.
public enum CECEvent: Sendable {
    /// The adapter opened and answered a ping (after the first open and after every reconnect).
    case connected(CECConnectionInfo)
    /// The connection is down (open failed, or it was lost); the driver retries after `retryIn`.
    case disconnected(reason: String, retryIn: Duration)
    /// libcec raised CONNECTION_LOST, or pings stopped being answered.
    case connectionLost
    /// Every frame libcec received (`commandReceived`).
    case frame(CECFrame)
    /// Report Power Status (0x90) from a device.
    case powerStatus(LogicalAddress, PowerStatus)
    /// Standby (0x36) from a device: broadcast when a TV is switched off by its own remote.
    case standby(from: LogicalAddress)
    /// Image View On / Text View On (0x04 / 0x0D) sent to `to` by `from`.
    case imageViewOn(from: LogicalAddress, to: LogicalAddress)
    /// Active Source (0x82): the device at this address says it is the input shown.
    case activeSource(PhysicalAddress, from: LogicalAddress)
    /// Set Stream Path (0x86): the sender asks the TV to show this address.
    case streamPath(PhysicalAddress, from: LogicalAddress)
    /// Routing Change (0x80): the TV (or a switch) moved from one input to another, e.g. by its remote.
    case routingChange(from: PhysicalAddress, to: PhysicalAddress)
    /// Routing Information (0x81).
    case routingInformation(PhysicalAddress)
    /// Report Audio Status (0x7A) from the audio system.
    case audioStatus(AudioStatus)
    /// Set System Audio Mode / System Audio Mode Status (0x72 / 0x7E).
    case systemAudioMode(Bool)
    /// Report Physical Address (0x84).
    case physicalAddress(LogicalAddress, PhysicalAddress)
    /// Device Vendor ID (0x87): a 24-bit OUI.
    case vendorID(LogicalAddress, UInt32)
    /// Set OSD Name (0x47).
    case osdName(LogicalAddress, String)
    /// libcec's `keyPress` callback (a remote key sent to us); duration 0 on press.
    case keyPress(code: UInt8, duration: Int)
    /// libcec's `sourceActivated` callback: our own logical address became (in)active.
    case sourceActivated(LogicalAddress, Bool)
    /// libcec's `alert` callback.
    case alert(CECAlert)
    /// libcec's log (only when `CECDriverConfiguration.libcecLogLevels` selects the level).
    case log(CECLogLevel, String)
}

/// What `.connected` reports.
public struct CECConnectionInfo: Sendable, Hashable {
    /// The port opened (a device path, or "Linux").
    public let port: String
    /// Our primary logical address.
    public let logicalAddress: LogicalAddress
    /// Our physical address.
    public let physicalAddress: PhysicalAddress
    /// The adapter's firmware version (0 when libcec does not say).
    public let firmwareVersion: Int
    /// How long `libcec_open` took.
    public let openDuration: Duration
    /// Whether the audio system answered the start-up poll.
    public let audioSystemPresent: Bool
}

/// libcec's alerts (`libcec_alert`).
public enum CECAlert: Sendable, Hashable {
    case serviceDevice
    case connectionLost
    case permissionError
    case portBusy
    case physicalAddressError
    case tvPollFailed
    case other(UInt32)

    init(rawValue: UInt32) {
        switch rawValue {
        case 0: self = .serviceDevice
        case 1: self = .connectionLost
        case 2: self = .permissionError
        case 3: self = .portBusy
        case 4: self = .physicalAddressError
        case 5: self = .tvPollFailed
        default: self = .other(rawValue)
        }
    }
}

/// libcec's log levels (`cec_log_level`), usable as a set.
public struct CECLogLevel: OptionSet, Sendable, Hashable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let error = CECLogLevel(rawValue: 1)
    public static let warning = CECLogLevel(rawValue: 2)
    public static let notice = CECLogLevel(rawValue: 4)
    public static let traffic = CECLogLevel(rawValue: 8)
    public static let debug = CECLogLevel(rawValue: 16)
    public static let all: CECLogLevel = [.error, .warning, .notice, .traffic, .debug]
}

/// An audio system's volume and mute (the Report Audio Status operand: bit 7 mute, bits 0-6 volume).
public struct AudioStatus: Sendable, Hashable, CustomStringConvertible {
    /// 0-100, nil when the device reports 0x7F ("unknown") or anything above 100.
    public let volume: Int?
    /// Whether audio is muted.
    public let muted: Bool

    public init(volume: Int?, muted: Bool) {
        self.volume = volume
        self.muted = muted
    }

    /// Decodes the operand byte.
    public init(cecByte: UInt8) {
        let level = Int(cecByte & 0x7F)
        self.init(volume: level <= 100 ? level : nil, muted: cecByte & 0x80 != 0)
    }

    public var description: String { "volume \(volume.map(String.init) ?? "?")\(muted ? " muted" : "")" }
}
