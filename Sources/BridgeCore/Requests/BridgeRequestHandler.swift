/// Runs the bridge API requests that need the hardware (include, exclude, heal, configuration parameters,
/// raw CEC frames). The core parses and validates every request (``BridgeRequest/parse(verb:arguments:)``)
/// and answers `devices` itself; a handler receives only the verbs it serves. Progress goes out as
/// `HardwareEvent.event`s of the handler's event stream, and the response follows them on the wire: the handler marks
/// the end of a request's events in that stream (``mark(_:)``).
public protocol BridgeRequestHandler: Sendable {
    /// The verbs this handler serves.
    var verbs: Set<BridgeRequest.Verb> { get }
    /// Runs `request`; its result, encoded (``RequestResult/json``), is the response's `data`.
    func handle(_ request: BridgeRequest) async throws(RequestFailure) -> RequestResult
    /// Puts `marker` into the event stream the bridge applies, behind every event emitted so far
    /// (`HardwareEvent.marker`), or reaches it at once when that stream has ended or this handler emits no events.
    func mark(_ marker: EventMarker) async
}
