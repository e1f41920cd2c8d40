internal import BridgeCore

/// Where the Z-Wave side's events go: the backend's event stream (``ZWaveBackend/events``, which the bridge applies on
/// a task of its own), or the ``RequestProgress`` sink of the request that works on the event's node.
///
/// A request's response follows its events on the wire because they go through its sink (the bridge publishes
/// what comes in there, then the response). The events a request makes itself (the health check's frames,
/// `node_added`, the interview's progress) are reported to its sink by the request's code. Others are caused by the
/// request but arrive through the library's notifications, on the backend's event loop: the controller's progress
/// during inclusion and exclusion, the new node's details and devices during its inclusion and interview, the
/// devices and `node_removed` of a node that was excluded or removed as failed, the details of a node being
/// re-interviewed. For those, a request *claims* the node it works on (``claim(_:for:)``): while the request's sink
/// is open, every event of that node goes through it, in the order the backend makes them; every other event goes
/// to the stream. Once the request has been answered its sink is closed, and the node's events go to the stream again.
///
/// What a claim leaves open: at the claim's start, an event of the node still queued in the stream (a state
/// reading of a node whose re-interview starts) may go out after the first events of the sink; at its end, an
/// event put into the stream just after the answer may go out before the sink's last events. Neither is an event
/// the response refers to: a node being included has no events before it is claimed, and an excluded node has none
/// after its removal.
@ZWaveBackendActor
final class EventRouter {
    private let stream: AsyncStream<HardwareEvent>.Continuation
    /// The requests working on a node, by node number.
    private var claims: [Int: RequestProgress] = [:]

    nonisolated init(stream: AsyncStream<HardwareEvent>.Continuation) {
        self.stream = stream
    }

    /// From now on, and while `progress` is open, `node`'s events go through `progress` (a later claim replaces it).
    func claim(_ node: NodeID, for progress: RequestProgress) {
        claims[Int(node.rawValue)] = progress
    }

    /// Sends `event` to the request that claimed its node, or to the stream.
    func yield(_ event: HardwareEvent) {
        if let node = Self.node(of: event), let progress = claims[node] {
            if progress.report(event) { return }
            claims[node] = nil  // that request was answered
        }
        stream.yield(event)
    }

    /// Publishes an event on the bridge's event topic (through the request that claimed its node, if any).
    func emit(_ event: BridgeEvent) {
        yield(.event(event))
    }

    /// The driver's events ended: so do the stream's.
    func finish() {
        stream.finish()
    }

    /// The Z-Wave node an event is about, if any.
    nonisolated static func node(of event: HardwareEvent) -> Int? {
        switch event {
        case .update(let source, _), .availability(let source, _), .sleeping(let source, _),
            .identified(let source, _, _), .sensorsFound(let source, _), .details(let source, _), .removed(let source),
            .thermostatFound(let source, _),
            .buttonsFound(let source, _), .button(let source, _, _):
            source.node
        case .discovered(let descriptor): descriptor.source.node
        case .scene(let node, _, _): node
        case .event(.nodeRemoved(let node)): node
        case .adapterAvailability, .network, .networkQueried, .event: nil
        }
    }
}
