/// What OpenZWave reported of the network its driver runs: the home id and the controller (from DriverReady) and
/// the value ids it created, by place. Forgotten when the driver is removed or stops.
struct NetworkView {
    /// The network's home id and the controller's node id while a driver runs (set by DriverReady).
    private(set) var home: HomeID?
    private(set) var controller: NodeID?
    /// The value ids OpenZWave reported, by place.
    private var values: [ZWaveValueKey: ZWaveValueID] = [:]

    /// Takes in what `event` tells of the network.
    mutating func note(_ event: ZWaveEvent) {
        switch event {
        case .driverReady(let home, let controller):
            self.home = home
            self.controller = controller
        case .driverReset:
            values.removeAll()
        case .valueAdded(let value), .valueChanged(let value), .valueRefreshed(let value):
            values[value.id.key] = value.id
        case .valueRemoved(let id):
            values[id.key] = nil
        case .nodeRemoved(let node), .nodeReset(let node):
            values = values.filter { $0.key.node != node }
        default:
            break
        }
    }

    /// The driver is gone: nothing of the network is known.
    mutating func forget() {
        home = nil
        controller = nil
        values.removeAll()
    }

    /// The value id OpenZWave reported for this place, if any.
    func valueID(for key: ZWaveValueKey) -> ZWaveValueID? { values[key] }

    /// All values OpenZWave reported for a node (or all nodes), sorted by place.
    func valueIDs(node: NodeID?) -> [ZWaveValueID] {
        values.values.filter { node == nil || $0.node == node }.sorted {
            ($0.node.rawValue, $0.commandClass, $0.instance, $0.index)
                < ($1.node.rawValue, $1.commandClass, $1.instance, $1.index)
        }
    }

    /// The highest instance among the values of `node` (1 for a node without values).
    func highestInstance(_ node: NodeID) -> UInt8 {
        values.keys.lazy.filter { $0.node == node }.map(\.instance).max() ?? 1
    }
}
