/// Everything `MQTTClient` needs to connect. `description` never contains the password.
public struct MQTTClientOptions: Sendable, CustomStringConvertible {
    /// MQTT client id (the bridge uses `thuis-bridge-<bridge>`).
    public var clientID: String
    public var host: String
    public var port: Int
    /// MQTT keep-alive interval (whole seconds, at least 5 are sent).
    public var keepAlive: Duration
    public var username: String?
    /// Never logged.
    public var password: String?
    /// CA certificate (PEM) used to verify the broker. Setting it turns TLS on; the broker's certificate
    /// and host name are always verified.
    public var caFile: String?
    /// Optional client certificate (PEM) for mutual TLS; needs `keyFile`.
    public var certFile: String?
    /// Private key (PEM, unencrypted) for `certFile`.
    public var keyFile: String?
    /// Last will, sent with CONNECT.
    public var will: MQTTWill?
    /// First reconnect delay; doubled after every failed attempt up to `reconnectDelayMax`.
    public var reconnectDelayMin: Duration
    public var reconnectDelayMax: Duration
    /// Inbound messages with a larger payload are reported as `MQTTInbound.oversized` instead.
    public var maxInboundPayloadBytes: Int
    /// The largest packet the broker may send us (MQTT 5 "Maximum Packet Size" in CONNECT). The broker drops
    /// a larger PUBLISH instead of sending it, so such a message is never buffered here at all.
    public var maxInboundPacketBytes: Int
    /// Capacity of the `inbound` stream; when the consumer falls behind, the oldest items are dropped
    /// (counted in `MQTTClientStatistics.droppedInbound` and logged).
    public var inboundBufferSize: Int
    /// Non-retained messages published while disconnected are queued up to this many (oldest dropped,
    /// counted and logged) and flushed on connect. Retained messages never queue: the retained store keeps
    /// the latest payload per topic.
    public var offlineQueueLimit: Int
    /// QoS used by the `MQTTPort` conformance (`publish(topic:payload:retain:)`, `subscribe(_:)`).
    public var defaultQoS: MQTTQoS

    public init(
        clientID: String,
        host: String = "127.0.0.1",
        port: Int = 1883,
        keepAlive: Duration = .seconds(30),
        username: String? = nil,
        password: String? = nil,
        caFile: String? = nil,
        certFile: String? = nil,
        keyFile: String? = nil,
        will: MQTTWill? = nil,
        reconnectDelayMin: Duration = .seconds(1),
        reconnectDelayMax: Duration = .seconds(30),
        maxInboundPayloadBytes: Int = 256 * 1024,
        maxInboundPacketBytes: Int = 1024 * 1024,
        inboundBufferSize: Int = 1024,
        offlineQueueLimit: Int = 256,
        defaultQoS: MQTTQoS = .atLeastOnce
    ) {
        self.clientID = clientID
        self.host = host
        self.port = port
        self.keepAlive = keepAlive
        self.username = username
        self.password = password
        self.caFile = caFile
        self.certFile = certFile
        self.keyFile = keyFile
        self.will = will
        self.reconnectDelayMin = reconnectDelayMin
        self.reconnectDelayMax = reconnectDelayMax
        self.maxInboundPacketBytes = maxInboundPacketBytes
        self.maxInboundPayloadBytes = maxInboundPayloadBytes
        self.inboundBufferSize = inboundBufferSize
        self.offlineQueueLimit = offlineQueueLimit
        self.defaultQoS = defaultQoS
    }

    /// True when `caFile` is set.
    public var usesTLS: Bool { caFile != nil }

    public var description: String {
        var parts = ["client \(clientID)", "\(usesTLS ? "mqtts" : "mqtt")://\(host):\(port)"]
        if let username { parts.append("user \(username)") }
        if password != nil { parts.append("password <redacted>") }
        if let caFile { parts.append("ca \(caFile)") }
        if let certFile { parts.append("cert \(certFile)") }
        return parts.joined(separator: ", ")
    }
}

/// The last will the broker publishes when the client disappears without a clean DISCONNECT.
public struct MQTTWill: Sendable, Hashable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: MQTTQoS
    public var retain: Bool

    public init(topic: String, payload: [UInt8], qos: MQTTQoS = .atLeastOnce, retain: Bool = true) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }

    /// A will with a UTF-8 text payload.
    public init(topic: String, text: String, qos: MQTTQoS = .atLeastOnce, retain: Bool = true) {
        self.init(topic: topic, payload: Array(text.utf8), qos: qos, retain: retain)
    }
}
