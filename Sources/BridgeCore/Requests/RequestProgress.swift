/// The sink through which a ``BridgeRequestHandler`` reports its request's own events: its progress
/// (`inclusion_waiting`, `interview_progress`, `health_check_frame`...) and the changes of state it caused (the
/// devices of a node that left the network).
///
/// The bridge makes one per request and applies what goes in, in order, on the request's own path: for a request on
/// MQTT, the task that answers it applies and publishes each event as it comes, and publishes the response once the
/// handler has returned and every event it put in is out. So a response follows its request's events on the wire by
/// construction, whatever the backends' event streams are doing (running, behind a backlog, not started): nothing is
/// marked and nothing is waited for but the request's own events. A front end's request (``Bridge/request(_:)``)
/// gets a sink whose events go out beside the hardware's, and its result comes back without waiting for them.
///
/// Putting an event in never waits (the buffer is unbounded, like a backend's event stream), so a backend may report
/// from its own event loop without that loop waiting for MQTT or for a slow subscriber. Once the request has been
/// answered the sink is closed (``finish()``): ``report(_:)`` then returns false, and the event is the caller's to
/// send another way (its backend's event stream).
public struct RequestProgress: Sendable {
    private let continuation: AsyncStream<HardwareEvent>.Continuation

    /// A sink and the stream of what goes into it, in order (the bridge applies that stream).
    public static func makeStream() -> (progress: RequestProgress, events: AsyncStream<HardwareEvent>) {
        let (events, continuation) = AsyncStream.makeStream(of: HardwareEvent.self, bufferingPolicy: .unbounded)
        return (RequestProgress(continuation: continuation), events)
    }

    /// Reports `event` as one of the request's; false when the sink is closed (the request was answered), and then
    /// the event went nowhere.
    @discardableResult
    public func report(_ event: HardwareEvent) -> Bool {
        if case .enqueued = continuation.yield(event) { return true }
        return false
    }

    /// Reports `event` on `<prefix>/bridge/<bridge>/event` as one of the request's.
    @discardableResult
    public func emit(_ event: BridgeEvent) -> Bool {
        report(.event(event))
    }

    /// Closes the sink: the bridge does so once the handler has returned. What was reported before still goes out.
    public func finish() {
        continuation.finish()
    }
}
