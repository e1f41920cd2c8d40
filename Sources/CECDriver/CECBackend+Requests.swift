public import BridgeCore

/// The CEC side of the bridge API: `cec_tx` sends a raw frame for power users.
extension CECBackend: BridgeRequestHandler {
    public nonisolated var verbs: Set<BridgeRequest.Verb> { [.cecTransmit] }

    /// `cec_tx` with `{"frame": "10:04"}` (parsed by the core) transmits the frame with `libcec_transmit` and
    /// answers with the frame as sent. It reports no events (what the TV answers arrives as `cec_received` events of
    /// the backend's stream, after the response).
    public func handle(
        _ request: BridgeRequest, progress: RequestProgress
    ) async throws(RequestFailure) -> RequestResult {
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
}
