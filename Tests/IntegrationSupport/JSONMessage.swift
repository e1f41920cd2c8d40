public import BridgeCore
public import MQTTDriver

/// A message whose payload is a JSON object, decoded: a bridge event (`{"type": "...", ...}` on
/// `<prefix>/bridge/<bridge>/event`) or a response to a bridge request (`{"transaction": ..., "status": ...}`). A test
/// matches its fields, never a substring of the text.
public struct JSONMessage: Sendable, CustomStringConvertible {
    /// The whole decoded payload.
    public let json: JSONValue
    /// The message it came in.
    public let message: MQTTMessage

    /// The payload of `message` decoded; nil when it is not a JSON object.
    public init?(_ message: MQTTMessage) {
        guard let json = try? JSONValue.parse(message.payload), case .object = json else { return nil }
        self.json = json
        self.message = message
    }

    /// An event's `type` (`adapter_lost`, `command_rejected`, `inclusion_waiting`...).
    public var type: String? { string("type") }

    /// The field `key`, nil when there is none.
    public subscript(key: String) -> JSONValue? { json[key] }

    /// The field `key` when it is a string.
    public func string(_ key: String) -> String? {
        if case .string(let value)? = json[key] { return value }
        return nil
    }

    /// The field `key` when it is an integer.
    public func int(_ key: String) -> Int? {
        if case .int(let value)? = json[key] { return value }
        return nil
    }

    /// The field `key` when it is an array, else empty.
    public func array(_ key: String) -> [JSONValue] {
        if case .array(let values)? = json[key] { return values }
        return []
    }

    /// Whether the string field `key` contains `text` (a reason or an error, whose wording around the part a test
    /// names may change).
    public func string(_ key: String, contains text: String) -> Bool {
        string(key)?.contains(text) ?? false
    }

    /// The payload as it was published.
    public var description: String { message.text }
}
