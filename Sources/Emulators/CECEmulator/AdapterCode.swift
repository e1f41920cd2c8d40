/// A Pulse-Eight USB-CEC adapter message code (bits 0-5 of the code byte), as libcec 6.0.2 uses them.
public enum AdapterCode: UInt8, Sendable, CaseIterable {
    case nothing = 0x00
    case ping = 0x01
    case timeoutError = 0x02
    case highError = 0x03
    case lowError = 0x04
    case frameStart = 0x05
    case frameData = 0x06
    case receiveFailed = 0x07
    case commandAccepted = 0x08
    case commandRejected = 0x09
    case setAckMask = 0x0A
    case transmit = 0x0B
    case transmitEOM = 0x0C
    case transmitIdleTime = 0x0D
    case transmitAckPolarity = 0x0E
    case transmitLineTimeout = 0x0F
    case transmitSucceeded = 0x10
    case transmitFailedLine = 0x11
    case transmitFailedAck = 0x12
    case transmitFailedTimeoutData = 0x13
    case transmitFailedTimeoutLine = 0x14
    case firmwareVersion = 0x15
    case startBootloader = 0x16
    case getBuildDate = 0x17
    case setControlled = 0x18
    case getAutoEnabled = 0x19
    case setAutoEnabled = 0x1A
    case getDefaultLogicalAddress = 0x1B
    case setDefaultLogicalAddress = 0x1C
    case getLogicalAddressMask = 0x1D
    case setLogicalAddressMask = 0x1E
    case getPhysicalAddress = 0x1F
    case setPhysicalAddress = 0x20
    case getDeviceType = 0x21
    case setDeviceType = 0x22
    case getHDMIVersion = 0x23
    case setHDMIVersion = 0x24
    case getOSDName = 0x25
    case setOSDName = 0x26
    case writeEEPROM = 0x27
    case getAdapterType = 0x28
    case setActiveSource = 0x29
    case getAutoPowerOn = 0x2A
    case setAutoPowerOn = 0x2B

    /// Flag on FRAME_START / FRAME_DATA: the last byte of a CEC frame.
    public static let eomFlag: UInt8 = 0x80
    /// Flag on FRAME_START: the frame was acknowledged.
    public static let ackFlag: UInt8 = 0x40
}
