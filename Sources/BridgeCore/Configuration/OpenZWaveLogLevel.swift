/// OpenZWave's log levels (`OpenZWave::LogLevel`), as written in `[zwave] log_level`.
public enum OpenZWaveLogLevel: String, Sendable, CaseIterable {
    case none, always, fatal, error, warning, alert, info, detail, debug
    case streamDetail = "stream_detail"
    case `internal`

    /// The value of `OpenZWave::LogLevel` (`LogLevel_None` = 1 ... `LogLevel_Internal` = 11).
    public var openZWaveValue: Int32 {
        switch self {
        case .none: 1
        case .always: 2
        case .fatal: 3
        case .error: 4
        case .warning: 5
        case .alert: 6
        case .info: 7
        case .detail: 8
        case .debug: 9
        case .streamDetail: 10
        case .internal: 11
        }
    }
}
