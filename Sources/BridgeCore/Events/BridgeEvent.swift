/// An event published (never retained) on `<prefix>/bridge/<bridge>/event` as JSON
/// `{"type": "...", ...}`. The constructors below are the catalogue of event types.
public struct BridgeEvent: Sendable, Equatable, CustomStringConvertible {
    public let type: String
    public let fields: [(String, JSONValue)]

    public init(type: String, fields: [(String, JSONValue)] = []) {
        self.type = type
        self.fields = fields
    }

    public static func == (lhs: BridgeEvent, rhs: BridgeEvent) -> Bool {
        lhs.json == rhs.json
    }

    /// The event as a JSON object, `type` first.
    public var json: JSONValue { .object([("type", .string(type))] + fields) }

    public var description: String { json.serialized }

    /// A command that was not executed, with the reason. The payload is shown as text (invalid UTF-8
    /// replaced, at most 64 characters) and its size is given.
    public static func commandRejected(topic: String, payload: [UInt8], reason: String) -> BridgeEvent {
        let shown = String(decoding: payload.prefix(PayloadParser.maximumLength), as: UTF8.self)
        return BridgeEvent(
            type: "command_rejected",
            fields: [
                ("topic", .string(topic)), ("payload", .string(shown)), ("payload_bytes", .int(payload.count)),
                ("reason", .string(reason)),
            ])
    }

    /// An adapter (`zwave` or `cec`) stopped answering or vanished.
    public static func adapterLost(_ adapter: String, reason: String) -> BridgeEvent {
        BridgeEvent(type: "adapter_lost", fields: [("adapter", .string(adapter)), ("reason", .string(reason))])
    }

    /// An adapter is back.
    public static func adapterRecovered(_ adapter: String) -> BridgeEvent {
        BridgeEvent(type: "adapter_recovered", fields: [("adapter", .string(adapter))])
    }

    /// A Z-Wave node died (`node_dead`) or came back (`node_alive`), once per fact: the node and every
    /// configured device of it, which the bridge marks `offline`/`online`.
    public static func nodeAvailability(_ source: DeviceSource, online: Bool, devices: [DeviceAddress]) -> BridgeEvent {
        var fields: [(String, JSONValue)] = []
        switch source {
        case .zwave(let node, _): fields.append(("node", .int(node)))
        case .cec(let address): fields.append(("logical_address", .int(address)))
        }
        fields.append(("device", devices.first.map { .string($0.description) } ?? .null))
        fields.append(("devices", .array(devices.map { .string($0.description) })))
        return BridgeEvent(type: online ? "node_alive" : "node_dead", fields: fields)
    }
}
