/// What the bridge's state publisher decided to send, in order: `Bridge` sends it (MQTT, events, front ends).
struct Outbox: Sendable {
    enum Item: Sendable {
        /// A message on the bridge's MQTT connection.
        case message(topic: String, payload: [UInt8], retain: Bool)
        /// An event on `<prefix>/bridge/<bridge>/event`.
        case event(BridgeEvent)
        /// The inventory changed: the retained `<prefix>/bridge/<bridge>/devices` gets the latest one
        /// (``StatePublisher/lastInventory``) as this is sent, not the one of when it was decided. Two outboxes may
        /// be sent at once (the hardware's events and a request's, ``RequestProgress``), and the one decided first
        /// may finish last: the inventory that stays is still the latest.
        case inventory
        /// The front ends' view of the inventory changed: they get the latest (``StatePublisher/frontEndInventory``)
        /// as this is sent, likewise.
        case frontEndInventory
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

    mutating func inventory() {
        items.append(.inventory)
    }

    mutating func frontEndInventory() {
        items.append(.frontEndInventory)
    }
}
