/// Where a device lives on the hardware side.
public enum DeviceSource: Sendable, Hashable, CustomStringConvertible {
    /// A Z-Wave node, or one multi-channel endpoint (`instance`) of it.
    case zwave(node: Int, instance: Int?)
    /// A CEC device by logical address (0 = TV).
    case cec(logicalAddress: Int)

    public var description: String {
        switch self {
        case .zwave(let node, nil): "zwave node \(node)"
        case .zwave(let node, let instance?): "zwave node \(node) instance \(instance)"
        case .cec(let address): "cec LA \(address)"
        }
    }

    /// The Z-Wave node of a source, or nil for CEC.
    public var zwaveNode: Int? {
        if case .zwave(let node, _) = self { return node }
        return nil
    }

    /// The adapter the device hangs off.
    public var adapter: Adapter {
        switch self {
        case .zwave: .zwave
        case .cec: .cec
        }
    }
}
