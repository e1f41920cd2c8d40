import BridgeCore

/// A request's arguments parsed from JSON as the bridge parses them, for the request suites.
protocol RequestParsing {}

extension RequestParsing {
    func parse(_ verb: BridgeRequest.Verb, _ json: String) throws -> BridgeRequest {
        try BridgeRequest.parse(verb: verb, arguments: try JSONValue.parse(Array(json.utf8)))
    }

    /// The reason `json` is refused as the arguments of `verb`, nil when it is accepted.
    func failure(_ verb: BridgeRequest.Verb, _ json: String) throws -> String? {
        do {
            _ = try parse(verb, json)
            return nil
        } catch let error as RequestFailure {
            return error.reason
        }
    }
}
