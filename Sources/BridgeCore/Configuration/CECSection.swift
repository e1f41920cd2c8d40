/// `[cec]`: the HDMI-CEC adapter, how the bridge presents itself on the bus, and the mapped CEC devices.
public struct CECSection: Sendable, Equatable {
    /// `port`: `auto` (detect), `Linux` (the Pi's own HDMI CEC) or a serial device; default `auto`.
    public var port: String
    /// `osd_name`: the name the TV shows for the bridge, 1-14 printable ASCII characters; default `Thuis`.
    public var osdName: String
    /// `device_type`: what the bridge registers as; default recording.
    public var deviceType: CECDeviceType
    /// `cec_rx_events`: publish every received CEC frame as a bridge event (for debugging); default false.
    public var rxEvents: Bool
    /// `[[cec.device]]`, in file order.
    public var devices: [CECDeviceConfig]

    public static let defaultPort = "auto"
    public static let defaultOSDName = "Thuis"
    /// CEC allows at most 14 characters in an OSD name.
    public static let maximumOSDNameLength = 14

    public init(
        port: String = CECSection.defaultPort, osdName: String = CECSection.defaultOSDName,
        deviceType: CECDeviceType = .recording, rxEvents: Bool = false, devices: [CECDeviceConfig] = []
    ) {
        self.port = port
        self.osdName = osdName
        self.deviceType = deviceType
        self.rxEvents = rxEvents
        self.devices = devices
    }
}

/// The CEC device type the bridge registers as (`[cec] device_type`).
public enum CECDeviceType: String, Sendable, CaseIterable {
    /// A recording device (logical address 1, 2 or 9): the usual choice for a controller.
    case recording
    /// A playback device (logical address 4, 8 or 11).
    case playback
}
