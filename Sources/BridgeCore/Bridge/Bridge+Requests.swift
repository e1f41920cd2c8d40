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
    /// result instead of publishing a response: the same handlers as `<prefix>/bridge/<bridge>/request/<verb>`, but
    /// without waiting for the request's events to be applied (``eventsApplied(of:verb:)``). That wait orders a
    /// response after its events on the MQTT wire; this result goes on no wire, and a scrape behind a backlog of
    /// events must not wait up to `eventsTimeout` (longer than Prometheus' scrape timeout).
    public func request(_ request: BridgeRequest) async -> Result<JSONValue, RequestFailure> {
        await perform(request, afterItsEvents: false)
    }

    /// Runs a valid request: `devices` here, the rest on the handler that serves its verb; with `afterItsEvents`
    /// (an MQTT response) it returns once the events the handler emitted so far are applied.
    func perform(_ request: BridgeRequest, afterItsEvents: Bool = true) async -> Result<JSONValue, RequestFailure> {
        if request == .devices { return .success(states.inventory()) }
        guard let handler = requestHandlers.first(where: { $0.verbs.contains(request.verb) }) else {
            let needs = request.verb == .cecTransmit ? "a CEC adapter" : "a Z-Wave adapter"
            return .failure(RequestFailure("\(request.verb) needs \(needs), which this bridge has not; \(servedVerbs)"))
        }
        let result: Result<JSONValue, RequestFailure>
        do {
            result = .success(try await handler.handle(request).json)
        } catch {
            result = .failure(error)
        }
        if afterItsEvents { await eventsApplied(of: handler, verb: request.verb) }
        return result
    }

    /// How long a response waits for its request's events (``eventsApplied(of:verb:)``) before it goes out anyway.
    static let eventsTimeout: Duration = .seconds(10)

    /// Returns once every event `handler` emitted so far has been applied and published, so that a request's
    /// response follows its events (progress, `health_check_completed`...) on the wire: the events go through the
    /// handler's event stream, applied on another task, while the result comes back here. At most `eventsTimeout`:
    /// a bridge whose event streams are not running (a front end's request before ``run(inbound:hardware:)``) or a
    /// backlog of events never holds a response back for longer; that is logged.
    func eventsApplied(of handler: any BridgeRequestHandler, verb: BridgeRequest.Verb) async {
        let marker = EventMarker()
        await handler.mark(marker)
        let reached = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await marker.reached()
                return !Task.isCancelled
            }
            group.addTask {
                try? await Task.sleep(for: Self.eventsTimeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        if !reached, !Task.isCancelled {
            logger.warning(
                "request's events not applied in time; answering anyway",
                metadata: ["command": "\(verb)", "waited": "\(Self.eventsTimeout)"])
        }
    }

    /// "this bridge serves: devices, cancel, ...".
    var servedVerbs: String {
        let served = ["devices"] + requestHandlers.flatMap(\.verbs).map(\.rawValue).sorted()
        return "this bridge serves: " + served.joined(separator: ", ")
    }
}
