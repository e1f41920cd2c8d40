/// The CEC opcodes the emulated devices understand or send.
enum CECOpcode {
    static let featureAbort: UInt8 = 0x00
    static let imageViewOn: UInt8 = 0x04
    static let textViewOn: UInt8 = 0x0D
    static let setMenuLanguage: UInt8 = 0x32
    static let standby: UInt8 = 0x36
    static let userControlPressed: UInt8 = 0x44
    static let userControlReleased: UInt8 = 0x45
    static let giveOSDName: UInt8 = 0x46
    static let setOSDName: UInt8 = 0x47
    static let systemAudioModeRequest: UInt8 = 0x70
    static let giveAudioStatus: UInt8 = 0x71
    static let setSystemAudioMode: UInt8 = 0x72
    static let reportAudioStatus: UInt8 = 0x7A
    static let giveSystemAudioModeStatus: UInt8 = 0x7D
    static let systemAudioModeStatus: UInt8 = 0x7E
    static let routingChange: UInt8 = 0x80
    static let routingInformation: UInt8 = 0x81
    static let activeSource: UInt8 = 0x82
    static let givePhysicalAddress: UInt8 = 0x83
    static let reportPhysicalAddress: UInt8 = 0x84
    static let requestActiveSource: UInt8 = 0x85
    static let setStreamPath: UInt8 = 0x86
    static let deviceVendorID: UInt8 = 0x87
    static let menuStatus: UInt8 = 0x8E
    static let giveDeviceVendorID: UInt8 = 0x8C
    static let giveDevicePowerStatus: UInt8 = 0x8F
    static let reportPowerStatus: UInt8 = 0x90
    static let getMenuLanguage: UInt8 = 0x91
    static let inactiveSource: UInt8 = 0x9D
    static let cecVersion: UInt8 = 0x9E
    static let getCECVersion: UInt8 = 0x9F
    static let abort: UInt8 = 0xFF

    /// Opcodes that are reports or notifications: a device never answers them with Feature Abort.
    static let informational: Set<UInt8> = [
        featureAbort, setMenuLanguage, setOSDName, setSystemAudioMode, reportAudioStatus, systemAudioModeStatus,
        routingChange, routingInformation, activeSource, reportPhysicalAddress, deviceVendorID, menuStatus,
        reportPowerStatus, inactiveSource, cecVersion, userControlReleased, 0x1A, 0x1B, 0x8A, 0x8B, 0xA0,
    ]

    /// User control codes.
    static let keyVolumeUp: UInt8 = 0x41
    static let keyVolumeDown: UInt8 = 0x42
    static let keyMute: UInt8 = 0x43
    static let keyMuteFunction: UInt8 = 0x65
    static let keyRestoreVolume: UInt8 = 0x66
    static let keyPower: UInt8 = 0x40
    static let keyPowerToggle: UInt8 = 0x6B
    static let keyPowerOff: UInt8 = 0x6C
    static let keyPowerOn: UInt8 = 0x6D
}
