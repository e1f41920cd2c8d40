import Foundation

/// How much longer than written a test waits. Every bound the test helpers wait for (a message, a line, a child's
/// exit, `finishing(within:)`, a browser's or a controller's wait) and every time the daemon tests assert as a
/// promise (a stop within the unit's `TimeoutStopSec`, a stick picked up within 2 s) is multiplied by `scale`.
///
/// `scale` is `THUIS_TEST_TIME_SCALE` from the environment: a number from 1 to 100, 1 when unset. A normal run keeps
/// every bound and promise as written. `.ci/sanitizers` sets it for a sanitizer run, where every process (the test
/// runner, each bridge, the libraries) runs several times slower: that run is about memory and threads, and the
/// normal run checks the times. A value that is not such a number stops the test run with the reason.
public enum TestTime {
    public static let scale: Double = {
        guard let text = ProcessInfo.processInfo.environment["THUIS_TEST_TIME_SCALE"] else { return 1 }
        guard let value = Double(text), value >= 1, value <= 100 else {
            preconditionFailure("THUIS_TEST_TIME_SCALE=\(text): expected a number from 1 to 100")
        }
        return value
    }()

    /// `duration` times `scale`.
    public static func scaled(_ duration: Duration) -> Duration {
        scale == 1 ? duration : duration * scale
    }

    /// `seconds` times `scale`, rounded up: for a bound a helper hands on as whole seconds (a browser's wait).
    public static func scaled(seconds: Int) -> Int {
        Int((Double(seconds) * scale).rounded(.up))
    }

    /// `minutes` times `scale`, rounded up: for a test's `.timeLimit`.
    public static func scaled(minutes: Int) -> Int {
        Int((Double(minutes) * scale).rounded(.up))
    }
}
