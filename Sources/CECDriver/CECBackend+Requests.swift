public import BridgeCore

/// The CEC side of the bridge API: `cec_tx` sends a raw frame for power users.
extension CECBackend: BridgeRequestHandler {
    public nonisolated var commands: Set<String> { ["cec_tx"] }

    /// `cec_tx` with `{"frame": "10:04"}` (hex bytes separated by `:`; the first is initiator << 4 | destination)
    /// transmits the frame with `libcec_transmit` and answers with the frame as sent.
    public func handle(
        command: String, arguments: JSONValue, events: @escaping @Sendable (BridgeEvent) async -> Void
    ) async throws(RequestFailure) -> JSONValue {
        guard case .string(let text)? = arguments["frame"] else {
            throw RequestFailure("cec_tx needs \"frame\": hex bytes like \"10:04\"")
        }
        let frame: CECFrame
        do {
            frame = try CECFrame(parsing: text)
        } catch {
            throw RequestFailure("invalid frame \"\(text.prefix(64))\": \(error)")
        }
        guard connected else { throw RequestFailure("the cec adapter is offline") }
        do {
            try await driver.transmit(frame)
        } catch {
            throw RequestFailure("\(error)")
        }
        markActive()
        return .object([("frame", .string(frame.description))])
    }
}
