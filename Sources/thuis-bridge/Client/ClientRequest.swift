import ArgumentParser
import BridgeCore

/// A bridge request as a client command sends it: the verb and its JSON arguments, checked before anything is
/// sent with the bridge's own parser (`BridgeRequest.parse`), so the command line refuses exactly what the bridge
/// would refuse, with the same reason (exit 2, and nothing reaches the broker).
struct ClientRequest {
    let verb: BridgeRequest.Verb
    let arguments: [(String, JSONValue)]

    init(_ verb: BridgeRequest.Verb, _ arguments: [(String, JSONValue)] = []) {
        self.verb = verb
        self.arguments = arguments
    }

    /// Throws the bridge's reason as a usage error when the bridge would refuse the request.
    func validate() throws {
        do {
            _ = try BridgeRequest.parse(verb: verb, arguments: .object(arguments))
        } catch {
            throw ValidationError("\(verb): \(error.reason)")
        }
    }

    /// The `<prefix>/bridge/<bridge>/request/<command>` this goes to.
    var command: String { verb.rawValue }
}
