internal import BridgeCore

/// Typed access to a bridge request's JSON arguments; a missing or wrong argument is a `RequestFailure`
/// naming it.
struct RequestArguments {
    let json: JSONValue

    init(_ json: JSONValue) { self.json = json }

    func has(_ name: String) -> Bool {
        guard let value = json[name] else { return false }
        return value != .null
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
                throw RequestFailure("argument \"\(name)\" must be an integer, not \"\(text)\"")
            }
            number = value
        case let other?:
            throw RequestFailure("argument \"\(name)\" must be an integer, not \(other.serialized)")
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
        case let other?: throw RequestFailure("argument \"\(name)\" must be true or false, not \(other.serialized)")
        }
    }
}
