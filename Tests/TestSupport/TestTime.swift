import LabSupport

/// How much longer than written a test waits. Every bound the test helpers wait for (a message, a line, a child's
/// exit, `finishing(within:)`, a browser's or a controller's wait) and every time the daemon tests assert as a
/// promise (a stop within the unit's `TimeoutStopSec`) is multiplied by `scale`.
///
/// `scale` is `THUIS_TEST_TIME_SCALE` from the environment (read by `LabSupport.LabTime`, which scales the waits of
/// the lab's child processes and brokers alike): a number from 1 to 100, 1 when unset. A normal run keeps
/// every bound and promise as written. `.ci/sanitizers` sets it for a sanitizer run, where every process (the test
/// runner, each bridge, the libraries) runs several times slower: that run is about memory and threads, and the
/// normal run checks the times. A value that is not such a number stops the test run with the reason.
public enum TestTime {
    public static var scale: Double { LabTime.scale }

    /// `duration` times `scale`.
    public static func scaled(_ duration: Duration) -> Duration { LabTime.scaled(duration) }

    /// `seconds` times `scale`, rounded up: for a bound a helper hands on as whole seconds (a browser's wait).
    public static func scaled(seconds: Int) -> Int {
        Int((Double(seconds) * scale).rounded(.up))
    }

    /// `minutes` times `scale`, rounded up: for a test's `.timeLimit`.
    public static func scaled(minutes: Int) -> Int {
        Int((Double(minutes) * scale).rounded(.up))
    }
}
