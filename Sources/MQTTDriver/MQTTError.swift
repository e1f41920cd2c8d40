/// Errors of the MQTT driver. Each carries its context: the libmosquitto function, the topic...
public enum MQTTError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A libmosquitto call returned `code`; `message` is `mosquitto_strerror` (or `strerror(errno)`),
    /// plus the library's last error log line (e.g. the OpenSSL verification failure) when there is one.
    case library(function: String, code: Int32, message: String)
    /// The broker refused the connection in its CONNACK (an MQTT 5 reason code, `mosquitto_reason_string`), e.g. bad password.
    case connectionRefused(code: Int32, message: String)
    /// A topic (or subscription filter) that MQTT does not allow.
    case invalidTopic(topic: String, reason: String)
    /// An option that cannot work (e.g. certFile without keyFile).
    case invalidOption(String)
    /// `run()` was called twice.
    case alreadyRunning
    /// The client was shut down; it cannot publish or run any more.
    case shutDown

    public var description: String {
        switch self {
        case .library(let function, let code, let message):
            "\(function) failed (\(code)): \(message)"
        case .connectionRefused(let code, let message):
            "broker refused the connection (CONNACK \(code)): \(message)"
        case .invalidTopic(let topic, let reason):
            "invalid MQTT topic \"\(topic)\": \(reason)"
        case .invalidOption(let text):
            "invalid MQTT option: \(text)"
        case .alreadyRunning:
            "MQTT client is already running"
        case .shutDown:
            "MQTT client was shut down"
        }
    }
}
