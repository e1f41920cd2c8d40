/// What the bridge's state publisher decided to send, in order: `Bridge` sends it (MQTT, events, front ends).
struct Outbox: Sendable {
    enum Item: Sendable {
        /// A message on the bridge's MQTT connection.
        case message(topic: String, payload: [UInt8], retain: Bool)
        /// An event on `<prefix>/bridge/<bridge>/event`.
        case event(BridgeEvent)
        /// The front ends' view of the inventory changed.
        case inventory(BridgeInventory)
    }

    private(set) var items: [Item] = []

    mutating func publish(_ topic: String, _ text: String, retain: Bool) {
        items.append(.message(topic: topic, payload: Array(text.utf8), retain: retain))
    }

    mutating func publish(_ topic: String, payload: [UInt8], retain: Bool) {
        items.append(.message(topic: topic, payload: payload, retain: retain))
    }

    mutating func event(_ event: BridgeEvent) {
        items.append(.event(event))
    }

    mutating func inventory(_ inventory: BridgeInventory) {
        items.append(.inventory(inventory))
    }
}
