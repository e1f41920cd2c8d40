/// A message to publish, e.g. one of the final messages handed to `MQTTClient.shutdown(final:timeout:)`.
public struct MQTTPublication: Sendable, Hashable {
    public var topic: String
    public var payload: [UInt8]
    public var retain: Bool

    public init(topic: String, payload: [UInt8], retain: Bool) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }

    /// A publication with a UTF-8 text payload.
    public init(topic: String, text: String, retain: Bool) {
        self.init(topic: topic, payload: Array(text.utf8), retain: retain)
    }
}
