/// Every device the bridge serves, its last known state, and the lookups both flows need.
public struct DeviceRegistry: Sendable {
    public private(set) var devices: [DeviceAddress: DeviceDescriptor] = [:]
    private var bySource: [DeviceSource: DeviceAddress] = [:]
    public private(set) var states: [DeviceAddress: DeviceState] = [:]

    public init(_ descriptors: [DeviceDescriptor] = []) {
        for descriptor in descriptors { add(descriptor) }
    }

    /// Adds (or replaces) a device.
    public mutating func add(_ descriptor: DeviceDescriptor) {
        devices[descriptor.address] = descriptor
        bySource[descriptor.source] = descriptor.address
        if states[descriptor.address] == nil { states[descriptor.address] = DeviceState() }
    }

    /// Removes a device and returns it.
    @discardableResult
    public mutating func remove(_ source: DeviceSource) -> DeviceDescriptor? {
        guard let address = bySource.removeValue(forKey: source) else { return nil }
        states[address] = nil
        return devices.removeValue(forKey: address)
    }

    public func device(at address: DeviceAddress) -> DeviceDescriptor? { devices[address] }

    /// The device for a hardware source. A Z-Wave node without an instance also matches the device
    /// configured for its instance 1 (the library files root values under instance 1).
    public func device(for source: DeviceSource) -> DeviceDescriptor? {
        if let address = bySource[source] { return devices[address] }
        if case .zwave(let node, nil) = source, let address = bySource[.zwave(node: node, instance: 1)] {
            return devices[address]
        }
        if case .zwave(let node, 1) = source, let address = bySource[.zwave(node: node, instance: nil)] {
            return devices[address]
        }
        return nil
    }

    /// Every device of a Z-Wave node (the node itself and its endpoints).
    public func devices(ofNode node: Int) -> [DeviceDescriptor] {
        devices.values.filter {
            if case .zwave(let n, _) = $0.source { return n == node }
            return false
        }.sorted { $0.address < $1.address }
    }

    /// Every device on an adapter.
    public func devices(onAdapter adapter: Adapter) -> [DeviceDescriptor] {
        devices.values.filter { $0.source.adapter == adapter }.sorted { $0.address < $1.address }
    }

    public func state(of address: DeviceAddress) -> DeviceState { states[address] ?? DeviceState() }

    public mutating func update(_ address: DeviceAddress, _ change: (inout DeviceState) -> Void) {
        guard devices[address] != nil else { return }
        change(&states[address, default: DeviceState()])
    }

    /// All devices, sorted by address.
    public var all: [DeviceDescriptor] { devices.values.sorted { $0.address < $1.address } }
}
