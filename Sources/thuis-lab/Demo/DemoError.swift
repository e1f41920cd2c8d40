import FoundationEssentials
internal import Glibc

/// Why the demo could not start. Each case says what to do about it.
enum DemoError: Error, CustomStringConvertible {
    /// `mosquitto` is not installed.
    case mosquittoMissing
    /// The private broker could not start, exited or did not accept connections in time (with its log).
    case brokerNotReady(String)
    /// An emulator could not open its pty.
    case emulator(String, underlying: String)
    /// `--broker` is not `host:port`.
    case badBrokerAddress(String)

    var description: String {
        switch self {
        case .mosquittoMissing:
            "mosquitto is not installed: sudo apt-get install mosquitto mosquitto-clients (or pass --broker host:port)"
        case .brokerNotReady(let reason):
            "the private mosquitto did not start: \(reason)"
        case .emulator(let which, let underlying):
            "the \(which) emulator could not start: \(underlying)"
        case .badBrokerAddress(let text):
            "--broker \"\(text)\": expected host:port, e.g. 127.0.0.1:1883"
        }
    }
}
