/// The CEC device type the bridge registers as (`[cec] device_type`).
public enum CECDeviceType: String, Sendable, CaseIterable {
    /// A recording device (logical address 1, 2 or 9): the usual choice for a controller.
    case recording
    /// A playback device (logical address 4, 8 or 11).
    case playback
}
