#if canImport(Glibc)
    import Glibc
#endif

/// Errors from setting up the control channel, naming the failing call.
public enum EmulatorControlChannelError: Error, CustomStringConvertible, Sendable {
    /// A system call failed with `errno`.
    case system(call: String, errno: Int32)

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        }
    }
}
