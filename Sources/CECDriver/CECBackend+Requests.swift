public import BridgeCore

/// The CEC side of the bridge API: `cec_tx` sends a raw frame for power users.
extension CECBackend: BridgeRequestHandler {
    public nonisolated var verbs: Set<BridgeRequest.Verb> { [.cecTransmit] }

    /// `cec_tx` with `{"frame": "10:04"}` (parsed by the core) transmits the frame with `libcec_transmit` and
    /// answers with the frame as sent.
    public func handle(_ request: BridgeRequest) async throws(RequestFailure) -> RequestResult {
        guard case .cecTransmit(let bytes) = request, let frame = CECFrame(bytes: bytes) else {
            throw RequestFailure("\(request.verb) is not a CEC request")
        }
        guard connected else { throw RequestFailure("the cec adapter is offline") }
        do {
            try await driver.transmit(frame)
        } catch {
            throw RequestFailure("\(error)")
        }
        markActive()
        return .cecTransmitted(CECTransmitResult(frame: frame.description))
    }

    /// Puts `marker` behind the events emitted so far: the bridge answers a request once it has published them.
    public func mark(_ marker: EventMarker) {
        if case .terminated = continuation.yield(.marker(marker)) { marker.reach() }
    }
}
