/// `[[zwave.button]]`: an extra, never retained publish when a scene button (Central Scene) does `action`.
public struct ZWaveButtonConfig: Sendable, Hashable {
    /// `node`: the node whose button it is, 1-232.
    public var node: Int
    /// `instance`: only this endpoint's buttons, 1-127; `nil` for any.
    public var instance: Int?
    /// `button`: the button (the Central Scene scene number), 1-255.
    public var button: Int
    /// `action`: `pressed`, `pressed_2x`...`pressed_5x`, `held` or `released`.
    public var action: ButtonAction
    /// `topic`: where to publish (no wildcards).
    public var topic: String
    /// `payload`: what to publish.
    public var payload: String

    public init(node: Int, instance: Int? = nil, button: Int, action: ButtonAction, topic: String, payload: String) {
        self.node = node
        self.instance = instance
        self.button = button
        self.action = action
        self.topic = topic
        self.payload = payload
    }
}
