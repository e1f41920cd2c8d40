/// One emulated CEC device on the bus.
struct EmulatedDevice: Sendable {
    enum Role: Sendable { case tv, audioSystem, playback }

    let role: Role
    let logicalAddress: UInt8
    let physicalAddress: UInt16
    let deviceType: UInt8
    let vendorID: UInt32
    let osdName: String
    var powered: Bool
    var present: Bool

    /// The Report Power Status operand: 0 on, 1 standby.
    var powerStatusByte: UInt8 { powered ? 0x00 : 0x01 }
}
