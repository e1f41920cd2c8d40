/// A point in a backend's stream of ``HardwareEvent``s, for a request's response to follow its events on the wire.
///
/// A request's handler emits its progress as events of its backend's stream, which the bridge applies on a task of
/// its own; the handler's result returns on another path. So before it answers, the bridge has the handler put a
/// marker behind every event it emitted so far (``BridgeRequestHandler/mark(_:)``), and publishes the response once
/// it has applied the events up to that marker (``Bridge/apply(_:)`` reaches it).
public final class EventMarker: Sendable {
    private let stream: AsyncStream<Never>
    private let continuation: AsyncStream<Never>.Continuation

    public init() {
        (stream, continuation) = AsyncStream.makeStream(of: Never.self)
    }

    /// Every event before the marker has been applied (or none will be: the stream has ended).
    public func reach() {
        continuation.finish()
    }

    /// Returns once the marker is reached, or the waiting task is cancelled.
    func reached() async {
        for await _ in stream {}
    }
}
