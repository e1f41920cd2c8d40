public import BridgeCore
internal import Logging
internal import Synchronization

extension MQTTClient: MQTTPort {
    /// `MQTTPort`: publishes with `options.defaultQoS`; an invalid topic or a shut-down client is logged
    /// (the bridge validates its topics at load time) and the message dropped.
    public func publish(topic: String, payload: [UInt8], retain: Bool) async {
        await publish(topic: topic, payload: payload, retain: retain, keep: true)
    }

    /// `MQTTPort`: publishes with `options.defaultQoS`, the retained message kept in the retained store or not.
    public func publish(topic: String, payload: [UInt8], retain: Bool, keep: Bool) async {
        do {
            try publish(topic: topic, payload: payload, retain: retain, qos: options.defaultQoS, keep: keep)
        } catch {
            logger.error("MQTT publish rejected", metadata: ["topic": "\(topic)", "error": "\(error)"])
        }
    }

    /// `MQTTPort`: subscribes with `options.defaultQoS` (re-subscribed after every reconnect).
    public func subscribe(_ filter: String) async {
        await subscribe(filter, options: [])
    }

    /// `MQTTPort`: subscribes with `options.defaultQoS` and MQTT 5's Retain As Published and No Local when asked.
    public func subscribe(_ filter: String, options subscription: MQTTSubscriptionOptions) async {
        do {
            try subscribe(
                filter, qos: options.defaultQoS, retainAsPublished: subscription.contains(.retainAsPublished),
                noLocal: subscription.contains(.noLocal))
        } catch {
            logger.error("MQTT subscribe rejected", metadata: ["filter": "\(filter)", "error": "\(error)"])
        }
    }

    /// What the client dropped, as bridge events (`messages_dropped`): inbound messages the consumer of `inbound`
    /// fell behind on (the oldest, past `options.inboundBufferSize`), and, once connected again, messages dropped
    /// from the offline queue (past `options.offlineQueueLimit`). Each event counts the drops since the previous
    /// one, by topic; at most one per `interval`, and nothing while nothing is dropped. Single consumer; ends when
    /// the client is shut down.
    public nonisolated func droppedMessages(interval: Duration = .seconds(1)) -> AsyncStream<HardwareEvent> {
        let drops = self.drops
        let pace = DropReportPace(interval: interval)
        return AsyncStream {
            while await drops.waitForDrops() {
                await pace.wait()
                // Counted by a previous report already (a drop between its wait and its take): wait for the next.
                guard let taken = drops.takeDrops() else { continue }
                pace.reported()
                return .event(.messagesDropped(taken))
            }
            return nil
        }
    }

    /// `inbound` as the bridge's messages (single consumer, like `inbound`).
    public nonisolated var inboundMessages: AsyncMapSequence<AsyncStream<MQTTInbound>, InboundMessage> {
        inbound.map { $0.inboundMessage }
    }
}

extension MQTTInbound {
    /// The item as BridgeCore's `InboundMessage`: an oversized message keeps its topic and size, its payload
    /// unread (the bridge rejects it by its size).
    public var inboundMessage: InboundMessage {
        switch self {
        case .message(let message):
            InboundMessage(topic: message.topic, payload: message.payload, retained: message.retained)
        case .oversized(let topic, let size, let retained):
            InboundMessage(topic: topic, payload: [], retained: retained, oversize: size)
        }
    }
}

/// At most one drop report per `interval`: `wait()` returns once `interval` has passed since the last `reported()`.
final class DropReportPace: Sendable {
    private let interval: Duration
    private let last = Mutex<ContinuousClock.Instant?>(nil)

    init(interval: Duration) { self.interval = interval }

    func wait() async {
        guard let last = last.withLock({ $0 }) else { return }
        try? await Task.sleep(until: last.advanced(by: interval), clock: .continuous)
    }

    func reported() { last.withLock { $0 = .now } }
}
