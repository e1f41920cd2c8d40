internal import BridgeCore

extension DeviceSource {
    /// The Z-Wave node of a source, or nil.
    var node: Int? {
        if case .zwave(let node, _) = self { return node }
        return nil
    }
}
