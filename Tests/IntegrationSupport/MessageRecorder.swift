public import MQTTDriver

/// Everything an `MQTTTestClient` received, in order.
public actor MessageRecorder {
    public private(set) var messages: [MQTTMessage] = []
    public private(set) var oversized: [(topic: String, size: Int)] = []
    public private(set) var connectionEvents: [MQTTConnectionEvent] = []

    public init() {}

    func record(_ item: MQTTInbound) {
        switch item {
        case .message(let message): messages.append(message)
        case .oversized(let topic, let size, _): oversized.append((topic, size))
        }
    }

    func record(_ event: MQTTConnectionEvent) {
        connectionEvents.append(event)
    }
}
