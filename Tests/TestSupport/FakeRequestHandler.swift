public import BridgeCore

/// A `BridgeRequestHandler` that records the requests it runs and answers each with a started heal
/// (`{"node": null, "started": true}`).
public actor FakeRequestHandler: BridgeRequestHandler {
    public nonisolated let verbs: Set<BridgeRequest.Verb>
    public private(set) var handled: [BridgeRequest] = []
    private var holding = false
    private var held: [CheckedContinuation<Void, Never>] = []

    public init(verbs: Set<BridgeRequest.Verb>) { self.verbs = verbs }

    public func handle(
        _ request: BridgeRequest, progress: RequestProgress
    ) async throws(RequestFailure) -> RequestResult {
        handled.append(request)
        if holding { await withCheckedContinuation { held.append($0) } }
        return .healStarted(node: nil)
    }

    /// From now on, each request runs until `releaseAll()` (like an inclusion that waits for a device).
    public func hold() { holding = true }

    /// Stops holding and lets every held request finish.
    public func releaseAll() {
        holding = false
        for continuation in held { continuation.resume() }
        held.removeAll()
    }
}
