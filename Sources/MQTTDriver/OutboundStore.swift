/// What `MQTTClient` sends again on every connect: the retained store (the latest retained payload per topic), the
/// retained clears not sent yet, and the offline queue of non-retained messages published while disconnected
/// (bounded, oldest dropped, counted).
struct OutboundStore {
    struct StoredState {
        var payload: [UInt8]
        var qos: MQTTQoS
    }

    struct Queued {
        var topic: String
        var payload: [UInt8]
        var qos: MQTTQoS
    }

    /// The latest retained payload per topic.
    var retained: [String: StoredState] = [:]
    /// Retained topics cleared (empty payload) while disconnected: the clear is sent on connect.
    var pendingClears: [String: MQTTQoS] = [:]
    private(set) var queue: [Queued] = []
    /// How many queued messages were dropped since start.
    private(set) var droppedQueued = 0

    /// Queues `message`, keeping at most `limit`; returns the oldest messages dropped to make room.
    mutating func enqueue(_ message: Queued, limit: Int) -> ArraySlice<Queued> {
        queue.append(message)
        guard queue.count > limit else { return [] }
        let overflow = queue.count - limit
        let dropped = queue.prefix(overflow)
        queue.removeFirst(overflow)
        droppedQueued += overflow
        return dropped
    }

    /// Takes the offline queue to send it (a message that fails again is queued again).
    mutating func takeQueue() -> [Queued] {
        defer { queue = [] }
        return queue
    }
}
