public import BridgeCore

/// The dashboard's WebSocket protocol: JSON text messages, the MQTT contract's vocabulary (DocC: Dashboard).
///
/// Client → bridge: ``ClientMessage``. Bridge → client: a `snapshot` on connect, then one message per MQTT publication
/// of the bridge (``outbound(topic:payload:retain:topics:)``) and `error` replies to frames it cannot use.
public enum DashboardProtocol {
    /// The longest message the bridge reads, in bytes, as on MQTT; a longer one gets an error reply, unread.
    public static let maximumMessageLength = 4 * 1024

    /// A message from a dashboard.
    public enum ClientMessage: Sendable, Equatable {
        /// `{"type": "set", "topic": "<prefix>/device/<room>/<name>/set", "payload": "40"}`: a device command on
        /// any device command topic (`/set`, `/get`, `/volume/set`, `/mute/set`, `/input/set`), exactly as published
        /// on MQTT. A number payload is taken as its text.
        case set(topic: String, payload: [UInt8])
        /// `{"type": "request", "verb": "include", "payload": {"transaction": "7", "timeout_s": 60}}`: a bridge request,
        /// its payload the request object MQTT takes (absent: an empty payload). Answered by a `response` message,
        /// as on `<prefix>/bridge/<bridge>/response/<verb>`.
        case request(verb: String, payload: [UInt8])
        /// `{"type": "scene", "topic": "Thuis/scene/movie", "payload": "on"}`: publishes a mapped scene
        /// (`[[zwave.scene]]`) as if its device had sent it.
        case scene(topic: String, payload: String)
    }

    /// Why a message from a dashboard cannot be used; sent back as `{"type": "error", "error": "..."}`.
    public struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Parses one text message.
    /// - Throws: ``ProtocolError`` for anything that is not one of the ``ClientMessage``s.
    public static func parse(_ bytes: [UInt8]) throws(ProtocolError) -> ClientMessage {
        guard bytes.count <= maximumMessageLength else { throw tooLarge(bytes.count) }
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes)
        } catch {
            throw ProtocolError(error.description)
        }
        guard case .object(let members) = json else {
            throw ProtocolError("a message must be a JSON object with a \"type\", not \(json.serialized.prefix(64))")
        }
        guard case .string(let type)? = json["type"] else {
            throw ProtocolError("a message needs a \"type\": \"set\", \"request\" or \"scene\"")
        }
        func only(_ keys: [String]) throws(ProtocolError) {
            if let unknown = members.first(where: { !(["type"] + keys).contains($0.0) }) {
                throw ProtocolError(
                    "unknown key \"\(unknown.0.prefix(64))\" in a \(type) message; it takes "
                        + keys.map { "\"\($0)\"" }.joined(separator: ", "))
            }
        }
        switch type {
        case "set":
            try only(["topic", "payload"])
            return .set(topic: try string(json, "topic"), payload: Array(try text(json, "payload").utf8))
        case "request":
            try only(["verb", "payload"])
            let verb = try string(json, "verb")
            guard TopicScheme.isValidLevel(verb) else {
                throw ProtocolError("\"verb\" must be one topic level [A-Za-z0-9_-]+, not \"\(verb.prefix(64))\"")
            }
            switch json["payload"] {
            case nil, .null?: return .request(verb: verb, payload: [])
            case .object(let request)?:
                return .request(verb: verb, payload: Array(JSONValue.object(request).serialized.utf8))
            case let other?:
                throw ProtocolError(
                    "\"payload\" of a request must be a JSON object, not \(other.serialized.prefix(64))")
            }
        case "scene":
            try only(["topic", "payload"])
            return .scene(topic: try string(json, "topic"), payload: try text(json, "payload"))
        default:
            throw ProtocolError(
                "unknown type \"\(type.prefix(64))\"; the bridge takes \"set\", \"request\" and \"scene\"")
        }
    }

    static func tooLarge(_ size: Int) -> ProtocolError {
        ProtocolError("message too large (\(size) bytes; at most \(maximumMessageLength)); it was not read")
    }

    static func binary() -> ProtocolError {
        ProtocolError("binary messages are not understood: send JSON text")
    }

    private static func string(_ json: JSONValue, _ key: String) throws(ProtocolError) -> String {
        switch json[key] {
        case .string(let text)?: return text
        case nil, .null?: throw ProtocolError("missing \"\(key)\" (a string)")
        case let other?: throw ProtocolError("\"\(key)\" must be a string, not \(other.serialized.prefix(64))")
        }
    }

    /// A payload: a string, or a number taken as its text.
    private static func text(_ json: JSONValue, _ key: String) throws(ProtocolError) -> String {
        switch json[key] {
        case .string(let text)?: return text
        case .int(let number)?: return String(number)
        case .double(let number)?: return JSONValue.double(number).serialized
        case nil, .null?: throw ProtocolError("missing \"\(key)\" (a string)")
        case let other?:
            throw ProtocolError("\"\(key)\" must be a string or a number, not \(other.serialized.prefix(64))")
        }
    }

    // MARK: Bridge → dashboard

    /// What one publication of the bridge is for a dashboard.
    public enum Outbound: Sendable, Equatable {
        /// A retained device topic (`state`, `/power`, `/availability`...): empty payload means cleared.
        case state(topic: String, payload: String)
        /// `<prefix>/bridge/<bridge>/state`.
        case bridgeState(String)
        /// `<prefix>/bridge/<bridge>/devices`: the inventory JSON.
        case devices(json: String)
        /// `<prefix>/bridge/<bridge>/event`: one event's JSON.
        case event(json: String)
        /// `<prefix>/bridge/<bridge>/response/<verb>`: the response JSON.
        case response(verb: String, json: String)
        /// Anything else (scene activations, mapped scene topics).
        case message(topic: String, payload: String)

        /// The WebSocket text of it.
        public var text: String {
            switch self {
            case .state(let topic, let payload):
                JSONValue.object([("type", "state"), ("topic", .string(topic)), ("payload", .string(payload))])
                    .serialized
            case .bridgeState(let state):
                JSONValue.object([("type", "bridge"), ("state", .string(state))]).serialized
            case .devices(let json):
                "{\"type\":\"devices\",\"devices\":\(DashboardProtocol.embedded(json))}"
            case .event(let json):
                "{\"type\":\"event\",\"event\":\(DashboardProtocol.embedded(json))}"
            case .response(let verb, let json):
                "{\"type\":\"response\",\"verb\":\(JSONValue.string(verb).serialized),\"response\":"
                    + "\(DashboardProtocol.embedded(json))}"
            case .message(let topic, let payload):
                JSONValue.object([("type", "message"), ("topic", .string(topic)), ("payload", .string(payload))])
                    .serialized
            }
        }
    }

    /// Classifies a publication of the bridge whose topics are `topics`.
    public static func outbound(topic: String, payload: [UInt8], retain: Bool, topics: TopicScheme) -> Outbound {
        let text = String(decoding: payload, as: UTF8.self)
        if topic == topics.bridgeState { return .bridgeState(text) }
        if topic == topics.bridgeDevices { return .devices(json: text) }
        if topic == topics.bridgeEvent { return .event(json: text) }
        let responses = topics.bridgeBase + "/response/"
        if topic.hasPrefix(responses) { return .response(verb: String(topic.dropFirst(responses.count)), json: text) }
        if retain, topic.hasPrefix(topics.prefix + "/device/") { return .state(topic: topic, payload: text) }
        return .message(topic: topic, payload: text)
    }

    /// JSON text the bridge wrote (an object or array), embedded as it is; anything else as a JSON string.
    static func embedded(_ json: String) -> String {
        guard let first = json.utf8.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            return JSONValue.string(json).serialized
        }
        return json
    }

    /// `{"type": "error", "error": "..."}`.
    public static func error(_ reason: String) -> String {
        JSONValue.object([("type", "error"), ("error", .string(reason))]).serialized
    }
}
