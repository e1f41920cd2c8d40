public import Logging

/// OpenZWave's log levels (most severe first) and their swift-log equivalents. OpenZWave's `info`
/// describes every message on the wire, so it maps to `debug`; its `detail`/`debug`/`streamDetail` to `trace`.
public enum ZWaveLogLevel: Int32, Sendable, Hashable, Comparable {
    case none = 1, always, fatal, error, warning, alert, info, detail, debug, streamDetail

    /// The level OpenZWave lines are logged at in swift-log.
    public var loggerLevel: Logger.Level {
        switch self {
        case .always, .alert: .notice
        case .fatal: .critical
        case .error: .error
        case .warning: .warning
        case .none, .info: .debug
        case .detail, .debug, .streamDetail: .trace
        }
    }

    /// The least severe OpenZWave level whose lines the logger would still show (`trace` stops at
    /// OpenZWave's `debug`: `streamDetail` must be asked for explicitly).
    public init(forwardingTo level: Logger.Level) {
        switch level {
        case .trace: self = .debug
        case .debug: self = .info
        case .info, .notice: self = .alert
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .fatal
        }
    }

    /// From the number OpenZWave passes to the log callback.
    init(code: Int32) {
        self = ZWaveLogLevel(rawValue: code) ?? (code > ZWaveLogLevel.streamDetail.rawValue ? .streamDetail : .always)
    }

    public static func < (lhs: ZWaveLogLevel, rhs: ZWaveLogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
