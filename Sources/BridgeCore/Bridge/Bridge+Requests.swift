internal import Logging

/// The bridge API: `<prefix>/bridge/<bridge>/request/<verb>` → `.../response/<verb>`. Every request gets
/// exactly one response, `status` `ok` or `error` with the reason; nothing reaches the hardware unless the
/// whole request is valid.
extension Bridge {
    /// The longest request payload accepted (the MQTT client reports longer ones by size only: `oversize`).
    static let maximumRequestLength = 4 * 1024

    /// Answers the request in `message` (its topic parsed to `verb`) on `response/<verb>`.
    func handleRequest(verb: String, message: InboundMessage) async {
        let (transaction, parsed) = parseRequest(verb: verb, message: message)
        let result: Result<JSONValue, RequestFailure>
        switch parsed {
        case .success(let request): result = await perform(request)
        case .failure(let failure): result = .failure(failure)
        }
        var fields: [(String, JSONValue)] = [("transaction", transaction)]
        switch result {
        case .success(let data):
            fields += [("status", "ok"), ("data", data)]
        case .failure(let failure):
            fields += [("status", "error"), ("error", .string(failure.reason))]
            logger.warning("request failed", metadata: ["command": "\(verb)", "reason": "\(failure.reason)"])
        }
        await mqtt.publish(
            topic: identity.topics.response(verb), text: JSONValue.object(fields).serialized, retain: false)
    }

    /// The request's transaction (echoed in the response whenever the payload is a JSON object that has one)
    /// and the typed request, or why there is none.
    func parseRequest(verb text: String, message: InboundMessage) -> (JSONValue, Result<BridgeRequest, RequestFailure>)
    {
        let size = message.oversize ?? message.payload.count
        guard size <= Self.maximumRequestLength else {
            return (
                .null,
                .failure(RequestFailure("request too long (\(size) bytes; at most \(Self.maximumRequestLength))"))
            )
        }
        var arguments = JSONValue.object([])
        if !message.payload.isEmpty {
            do {
                arguments = try JSONValue.parse(message.payload)
            } catch {
                return (.null, .failure(RequestFailure(error.description)))
            }
        }
        let transaction = arguments["transaction"] ?? .null
        guard let verb = BridgeRequest.Verb(rawValue: text) else {
            return (transaction, .failure(RequestFailure("unknown command \"\(text.prefix(64))\"; \(servedVerbs)")))
        }
        if message.retained {
            return (
                transaction, .failure(RequestFailure("retained request ignored: requests must not be retained"))
            )
        }
        if message.payload.isEmpty && verb.changesNetwork {
            return (
                transaction,
                .failure(
                    RequestFailure(
                        "empty request: \(verb) needs a JSON object such as {\"transaction\": \"1\"}"
                            + " (an empty payload, like a cleared retained message, never changes the network)"))
            )
        }
        do {
            return (transaction, .success(try BridgeRequest.parse(verb: verb, arguments: arguments)))
        } catch {
            return (transaction, .failure(error))
        }
    }

    /// Runs a request for a front end of the bridge (the dashboard's `/api/devices` and `/metrics`) and gives it the
    /// result instead of publishing a response: the same handlers as `<prefix>/bridge/<bridge>/request/<verb>`, each
    /// request with a ``RequestProgress`` of its own. Its events, if any, go out beside the hardware's
    /// (``run(inbound:hardware:)`` applies them, in order): this result goes on no wire, so it waits for nothing,
    /// neither for the request's events nor for a backlog of other events.
    public func request(_ request: BridgeRequest) async -> Result<JSONValue, RequestFailure> {
        let (progress, events) = RequestProgress.makeStream()
        frontEndRequests.continuation.yield(events)
        return await execute(request, progress: progress)
    }

    /// Runs a valid request on MQTT: `devices` here, the rest on the handler that serves its verb, with a
    /// ``RequestProgress`` of its own. This task applies and publishes the events the handler reports through it as
    /// they come, and returns once the handler has returned and the last of them is out: the response, published
    /// next, follows them by construction. Nothing else is waited for (no other event stream, no time limit); the
    /// handler never waits for this publishing (its sink is unbounded), and the bridge's other events go on meanwhile.
    /// When the bridge stops (this task is cancelled) the publishing ends with the task, and the response (`bridge
    /// stopping`) goes out without the events not yet published.
    func perform(_ request: BridgeRequest) async -> Result<JSONValue, RequestFailure> {
        let (progress, events) = RequestProgress.makeStream()
        async let result = execute(request, progress: progress)
        for await event in events { await apply(event) }
        return await result
    }

    /// Runs `request` on its handler with `progress`, and closes `progress` when it returned.
    private func execute(_ request: BridgeRequest, progress: RequestProgress) async -> Result<JSONValue, RequestFailure>
    {
        defer { progress.finish() }
        if request == .devices { return .success(states.inventory()) }
        guard let handler = requestHandlers.first(where: { $0.verbs.contains(request.verb) }) else {
            let needs = request.verb == .cecTransmit ? "a CEC adapter" : "a Z-Wave adapter"
            return .failure(RequestFailure("\(request.verb) needs \(needs), which this bridge has not; \(servedVerbs)"))
        }
        do {
            return .success(try await handler.handle(request, progress: progress).json)
        } catch {
            return .failure(error)
        }
    }

    /// "this bridge serves: devices, cancel, ...".
    var servedVerbs: String {
        let served = ["devices"] + requestHandlers.flatMap(\.verbs).map(\.rawValue).sorted()
        return "this bridge serves: " + served.joined(separator: ", ")
    }
}
