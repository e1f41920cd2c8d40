/// The `get_config` and `set_config` answer: a configuration parameter as the device reported it.
public struct ConfigParameterValue: Sendable, Hashable {
    public let node: Int
    public let parameter: Int
    public let value: Int
    /// Its size in bytes.
    public let size: Int
    /// The node sleeps: the value was asked for and is held for its next wake-up (`command_pending`), not yet
    /// reported.
    public let pending: Bool

    public init(node: Int, parameter: Int, value: Int, size: Int, pending: Bool = false) {
        self.node = node
        self.parameter = parameter
        self.value = value
        self.size = size
        self.pending = pending
    }
}

/// The `config_list` answer: every configuration parameter the library knows for a node, by number.
public struct ConfigParameterList: Sendable, Hashable {
    public let node: Int
    public let parameters: [ConfigParameter]

    public init(node: Int, parameters: [ConfigParameter]) {
        self.node = node
        self.parameters = parameters
    }
}

/// One configuration parameter as the library last knew it, without asking the device.
public struct ConfigParameter: Sendable, Hashable {
    public let parameter: Int
    public let label: String
    /// The value as a number (nil: the library holds no number for it).
    public let value: Int?
    /// The label of the chosen item, for a list parameter.
    public let choice: String?
    /// The size in bytes (published with a value only).
    public let size: Int
    /// The units (empty: none).
    public let units: String
    public let readOnly: Bool

    public init(
        parameter: Int, label: String, value: Int?, choice: String?, size: Int, units: String, readOnly: Bool
    ) {
        self.parameter = parameter
        self.label = label
        self.value = value
        self.choice = choice
        self.size = size
        self.units = units
        self.readOnly = readOnly
    }
}
