import BridgeCore

/// A controller-mode request (include, exclude) with live progress, cancelled on the bridge when the
/// user presses Ctrl-C.
enum ControllerRequest {
    private enum Outcome: Sendable {
        case answered(JSONValue)
        case interrupted
    }

    static func run(
        _ connection: BridgeConnection, command: String, arguments: [(String, JSONValue)], timeout: Duration,
        what: String
    ) async throws -> JSONValue {
        let progress = ProgressLine()
        let interrupt = InterruptSignal()
        let outcome: Outcome
        do {
            outcome = try await withThrowingTaskGroup(of: Outcome.self) { group in
                group.addTask {
                    .answered(
                        try await connection.request(command, arguments, timeout: timeout) { event in
                            progress.show(event)
                        })
                }
                group.addTask {
                    await interrupt.wait()
                    return .interrupted
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { throw ClientError.interrupted }
                return first
            }
        } catch {
            progress.finish()
            throw error
        }
        progress.finish()
        switch outcome {
        case .answered(let data):
            return data
        case .interrupted:
            ClientRunner.standardError("interrupted: cancelling \(what) on the bridge")
            do {
                _ = try await connection.request("cancel", timeout: .seconds(5))
            } catch {
                throw ClientError.failed(command: command, reason: "interrupted, and the cancel failed: \(error)")
            }
            throw ClientError.failed(
                command: command, reason: "cancelled (interrupted); the controller left \(what) mode")
        }
    }
}
