/// Why a CEC driver operation failed. `libcec` names the C function that refused.
public enum CECDriverError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A libcec call returned failure.
    case libcec(function: String, detail: String)
    /// The operation needs an open connection.
    case notConnected(operation: String)
    /// `port = "auto"` and `libcec_detect_adapters` found nothing.
    case noAdapterFound
    /// `libcec_open` claimed success but the adapter does not answer pings.
    case adapterNotResponding(port: String)
    /// The configured port (a device path) does not exist: the adapter is unplugged.
    case portMissing(port: String)
    /// A raw frame was malformed.
    case invalidFrame(String)
    /// A configuration value is unusable.
    case invalidConfiguration(String)

    public var description: String {
        switch self {
        case .libcec(let function, let detail): "\(function) failed: \(detail)"
        case .notConnected(let operation): "\(operation): the CEC adapter is not connected"
        case .noAdapterFound: "libcec_detect_adapters found no CEC adapter"
        case .adapterNotResponding(let port): "libcec_open(\(port)) returned, but the adapter does not answer pings"
        case .portMissing(let port): "\(port) does not exist (adapter unplugged?)"
        case .invalidFrame(let why): "invalid CEC frame: \(why)"
        case .invalidConfiguration(let why): "invalid CEC configuration: \(why)"
        }
    }
}
