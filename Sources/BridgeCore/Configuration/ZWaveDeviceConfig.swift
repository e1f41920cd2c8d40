/// `[[zwave.device]]`: a Z-Wave node (or one multi-channel endpoint of it) given a room and a name.
public struct ZWaveDeviceConfig: Sendable, Hashable {
    /// `node`: the node id, 1-232.
    public var node: Int
    /// `instance`: the multi-channel endpoint, 1-127 (e.g. a PowerNode 6 socket), or `nil` for the whole node.
    public var instance: Int?
    /// `room` and `name`: the device's topics are `<prefix>/device/<room>/<name>`.
    public var address: DeviceAddress
    /// `[zwave.device.config]`: configuration parameters to apply after the interview, sorted by parameter.
    public var config: [ZWaveConfigParameter]
    /// `associations`: members to add to the node's association groups after the interview, by group (members are
    /// added, never removed).
    public var associations: [Int: [AssociationTarget]]
    /// `wake_up_interval`: seconds between a battery node's timed wake-ups (Wake Up command class), set after the
    /// interview when the node reports another; 0 stops its timed wake-ups; `nil` leaves it as it is.
    public var wakeUpInterval: Int?

    /// The longest wake-up interval the command class can carry (24 bits of seconds).
    public static let wakeUpIntervalRange = 0...16_777_215

    public init(
        node: Int, instance: Int? = nil, address: DeviceAddress, config: [ZWaveConfigParameter] = [],
        associations: [Int: [AssociationTarget]] = [:]
    ) {
        self.node = node
        self.instance = instance
        self.address = address
        self.config = config.sorted { $0.parameter < $1.parameter }
        self.associations = associations
    }

    /// `room`.
    public var room: String { address.room }
    /// `name`.
    public var name: String { address.name }
    /// Where the device lives on the hardware side.
    public var source: DeviceSource { .zwave(node: node, instance: instance) }
}

/// One `parameter = value` line of `[zwave.device.config]`, e.g. `28 = 1` (FGD212: scene activation on).
public struct ZWaveConfigParameter: Sendable, Hashable {
    /// The parameter number, 1-255.
    public var parameter: Int
    /// The value; configuration values are at most 4 bytes, signed.
    public var value: Int32

    public init(parameter: Int, value: Int32) {
        self.parameter = parameter
        self.value = value
    }
}
