internal import Logging

/// The bridge API: `<prefix>/bridge/<bridge>/request/<command>` → `.../response/<command>`. Every request
/// gets exactly one response, `status` `ok` or `error` with the reason.
extension Bridge {
    /// The longest request payload accepted (the MQTT client reports longer ones by size only: `oversize`).
    static let maximumRequestLength = 4 * 1024

    func handleRequest(command: String, payload: [UInt8], oversize: Int? = nil) async {
        var transaction: JSONValue = .null
        let result: Result<JSONValue, RequestFailure>
        let size = oversize ?? payload.count
        if oversize != nil || size > Self.maximumRequestLength {
            result = .failure(RequestFailure("request too long (\(size) bytes; at most \(Self.maximumRequestLength))"))
        } else {
            do {
                let arguments = payload.isEmpty ? JSONValue.object([]) : try JSONValue.parse(payload)
                guard case .object = arguments else { throw RequestFailure("the request must be a JSON object") }
                transaction = arguments["transaction"] ?? .null
                result = .success(try await perform(command, arguments: arguments))
            } catch let error as JSONParseError {
                result = .failure(RequestFailure(error.description))
            } catch let error as RequestFailure {
                result = .failure(error)
            } catch {
                result = .failure(RequestFailure("\(error)"))
            }
        }
        var fields: [(String, JSONValue)] = [("transaction", transaction)]
        switch result {
        case .success(let data):
            fields += [("status", "ok"), ("data", data)]
        case .failure(let failure):
            fields += [("status", "error"), ("error", .string(failure.reason))]
            logger.warning("request failed", metadata: ["command": "\(command)", "reason": "\(failure.reason)"])
        }
        await mqtt.publish(
            topic: identity.topics.response(command), text: JSONValue.object(fields).serialized, retain: false)
    }

    func perform(_ command: String, arguments: JSONValue) async throws(RequestFailure) -> JSONValue {
        if command == "devices" { return inventory() }
        if let handler = requestHandlers.first(where: { $0.commands.contains(command) }) {
            return try await handler.handle(command: command, arguments: arguments) { event in
                await self.publish(event: event)
            }
        }
        let known = (["devices"] + requestHandlers.flatMap(\.commands).sorted()).joined(separator: ", ")
        throw RequestFailure("unknown command \"\(command)\"; this bridge serves: \(known)")
    }
}
