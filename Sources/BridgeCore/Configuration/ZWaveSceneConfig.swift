/// `[[zwave.scene]]`: an extra, never retained publish when a device sends a scene activation.
public struct ZWaveSceneConfig: Sendable, Hashable {
    /// `node`: the node that sends the scene activation, 1-232.
    public var node: Int
    /// `instance`: only activations from this endpoint, 1-127; `nil` for any.
    public var instance: Int?
    /// `scene`: the scene id, 1-255 (FGD212: 26 is S2 single click).
    public var scene: Int
    /// `topic`: where to publish (no wildcards).
    public var topic: String
    /// `payload`: what to publish.
    public var payload: String

    public init(node: Int, instance: Int? = nil, scene: Int, topic: String, payload: String) {
        self.node = node
        self.instance = instance
        self.scene = scene
        self.topic = topic
        self.payload = payload
    }
}
