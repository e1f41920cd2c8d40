import FoundationEssentials
internal import Glibc

/// Why the demo could not start. Each case says what to do about it.
enum DemoError: Error, CustomStringConvertible {
    /// `mosquitto` is not installed.
    case mosquittoMissing
    /// A system call failed while starting the private broker.
    case system(call: String, errno: Int32)
    /// The private broker exited or did not accept connections in time.
    case brokerNotReady(port: Int, log: String)
    /// An emulator could not open its pty.
    case emulator(String, underlying: String)
    /// `--broker` is not `host:port`.
    case badBrokerAddress(String)

    var description: String {
        switch self {
        case .mosquittoMissing:
            "mosquitto is not installed: sudo apt-get install mosquitto mosquitto-clients (or pass --broker host:port)"
        case .system(let call, let code):
            "\(call) failed: \(String(cString: strerror(code)))"
        case .brokerNotReady(let port, let log):
            "the private mosquitto on 127.0.0.1:\(port) did not start; its log:\n\(log)"
        case .emulator(let which, let underlying):
            "the \(which) emulator could not start: \(underlying)"
        case .badBrokerAddress(let text):
            "--broker \"\(text)\": expected host:port, e.g. 127.0.0.1:1883"
        }
    }
}
