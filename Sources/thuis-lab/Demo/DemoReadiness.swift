import BridgeCore
import MQTTDriver

/// Watches the feed for the moment the house is ready: the inventory says every Z-Wave device has been
/// interviewed, and every CEC device's availability is `online`. Reports it once.
struct DemoReadiness: Sendable {
    private let inventoryTopic: String
    private var zwavePending: Bool
    private var cecPending: Set<String>
    private var reported = false

    init(configuration: BridgeConfiguration) {
        let topics = configuration.topics
        inventoryTopic = topics.bridgeDevices
        zwavePending = !(configuration.zwave?.devices.isEmpty ?? true)
        cecPending = Set((configuration.cec?.devices ?? []).map { topics.device($0.address).availability })
    }

    /// Takes one message; true exactly once, when the last condition is met.
    mutating func observe(_ message: MQTTMessage) -> Bool {
        if message.topic == inventoryTopic, DemoFeedFormatter.allInterviewed(message.payload) { zwavePending = false }
        if message.text == "online" { cecPending.remove(message.topic) }
        guard !reported, !zwavePending, cecPending.isEmpty else { return false }
        reported = true
        return true
    }
}
