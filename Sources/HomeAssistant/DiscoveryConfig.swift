public import BridgeCore

/// One Home Assistant MQTT discovery config: published retained on
/// `<prefix>/<component>/<node_id>/<object_id>/config`. The node id is the namespace of one bridge
/// (`thuis_<bridge>`) or of one Z-Wave network (`thuis_zwave_<home id>`), the object id the entity's stable
/// identity (also its `unique_id`).
public struct DiscoveryConfig: Sendable, Equatable {
    /// The Home Assistant platform: `light`, `switch`, `sensor`, `device_automation`...
    public let component: String
    public let nodeID: String
    public let objectID: String
    /// The config JSON.
    public let payload: JSONValue

    public init(component: String, nodeID: String, objectID: String, payload: JSONValue) {
        self.component = component
        self.nodeID = nodeID
        self.objectID = objectID
        self.payload = payload
    }

    /// The config topic under the discovery `prefix`.
    public func topic(prefix: String) -> String { "\(prefix)/\(component)/\(nodeID)/\(objectID)/config" }
}
