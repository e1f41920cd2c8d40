/// `[[cec.device]]`: a CEC device by logical address, given a room and a name.
public struct CECDeviceConfig: Sendable, Hashable {
    /// `address`: the logical address, 0-14 (0 is the TV, 5 the audio system).
    public var logicalAddress: Int
    /// `room` and `name`: the device's topics are `<prefix>/device/<room>/<name>`.
    public var address: DeviceAddress
    /// `[cec.device.inputs]`: input names (`[A-Za-z0-9_-]+`) to physical addresses, for `/input` and `/input/set`.
    public var inputs: [String: PhysicalAddress]

    public init(logicalAddress: Int, address: DeviceAddress, inputs: [String: PhysicalAddress] = [:]) {
        self.logicalAddress = logicalAddress
        self.address = address
        self.inputs = inputs
    }

    /// `room`.
    public var room: String { address.room }
    /// `name`.
    public var name: String { address.name }
    /// Where the device lives on the hardware side.
    public var source: DeviceSource { .cec(logicalAddress: logicalAddress) }
}
