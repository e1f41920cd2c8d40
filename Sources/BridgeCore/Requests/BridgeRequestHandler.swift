/// Runs the bridge API requests that need the hardware (include, exclude, heal, configuration parameters,
/// raw CEC frames). The core parses and validates every request (``BridgeRequest/parse(verb:arguments:)``)
/// and answers `devices` itself; a handler receives only the verbs it serves.
///
/// A request's events (its progress, the state changes it caused) go through the `progress` sink the bridge gives
/// the handler for that request, never through the handler's event stream: the bridge publishes them as they come
/// and the response after them, so on the wire a response follows its request's events (``RequestProgress``).
public protocol BridgeRequestHandler: Sendable {
    /// The verbs this handler serves.
    var verbs: Set<BridgeRequest.Verb> { get }
    /// Runs `request`, reporting its events through `progress`; its result, encoded (``RequestResult/json``), is the
    /// response's `data`.
    func handle(_ request: BridgeRequest, progress: RequestProgress) async throws(RequestFailure) -> RequestResult
}
