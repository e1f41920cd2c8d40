/// Typed access to a bridge request's JSON arguments: the request must be a JSON object whose keys the verb
/// knows; a missing or wrong argument is a ``RequestFailure`` naming it.
struct RequestArguments {
    let json: JSONValue

    init(_ json: JSONValue, verb: BridgeRequest.Verb) throws(RequestFailure) {
        guard case .object(let members) = json else {
            throw RequestFailure("the request must be a JSON object, not \(json.serialized.prefix(64))")
        }
        let known = ["transaction"] + verb.argumentKeys
        if let unknown = members.first(where: { !known.contains($0.0) }) {
            throw RequestFailure(
                "unknown argument \"\(unknown.0.prefix(64))\" for \(verb); it takes "
                    + known.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        self.json = json
    }

    func has(_ name: String) -> Bool {
        guard let value = json[name] else { return false }
        return value != .null
    }

    /// The `node` argument: a Z-Wave node id.
    func node() throws(RequestFailure) -> Int {
        try integer("node", in: 1...232)
    }

    /// An integer argument (a whole JSON number or a decimal string) within `range`.
    func integer(_ name: String, default fallback: Int? = nil, in range: ClosedRange<Int>) throws(RequestFailure) -> Int
    {
        let number: Int
        switch json[name] {
        case nil, .null?:
            guard let fallback else {
                throw RequestFailure(
                    "missing argument \"\(name)\" (an integer \(range.lowerBound)...\(range.upperBound))")
            }
            return fallback
        case .int(let value)?:
            number = value
        case .double(let value)? where value.rounded() == value && abs(value) < 1e15:
            number = Int(value)
        case .string(let text)?:
            guard let value = Int(text) else {
                throw RequestFailure("argument \"\(name)\" must be an integer, not \"\(text.prefix(64))\"")
            }
            number = value
        case let other?:
            throw RequestFailure("argument \"\(name)\" must be an integer, not \(other.serialized.prefix(64))")
        }
        guard range.contains(number) else {
            throw RequestFailure(
                "argument \"\(name)\" must be within \(range.lowerBound)...\(range.upperBound), not \(number)")
        }
        return number
    }

    /// A boolean argument.
    func bool(_ name: String, default fallback: Bool) throws(RequestFailure) -> Bool {
        switch json[name] {
        case nil, .null?: return fallback
        case .bool(let value)?: return value
        case let other?:
            throw RequestFailure("argument \"\(name)\" must be true or false, not \(other.serialized.prefix(64))")
        }
    }

    /// A required string argument.
    func string(_ name: String, example: String) throws(RequestFailure) -> String {
        switch json[name] {
        case .string(let text)?: return text
        case nil, .null?: throw RequestFailure("missing argument \"\(name)\" (a string like \"\(example)\")")
        case let other?:
            throw RequestFailure("argument \"\(name)\" must be a string, not \(other.serialized.prefix(64))")
        }
    }
}
