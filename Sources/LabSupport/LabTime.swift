import FoundationEssentials
internal import Glibc

/// How much longer than written a lab wait lasts: `THUIS_TEST_TIME_SCALE` from the environment, a number from 1 to
/// 100, 1 when unset. The tests set it for a sanitizer run (every process runs several times slower there); the
/// bench and the demo leave it unset. Every bound ``ChildProcess`` and ``MosquittoBroker`` wait for is multiplied by
/// it, and so is every bound of the tests (`TestTime` in TestSupport reads it here).
public enum LabTime {
    /// The scale; a value that is not a number from 1 to 100 is ignored (scale 1) with a warning on standard error:
    /// the demo and the bench link this too, and a typo in the environment must not crash them.
    public static let scale: Double = {
        guard let text = ProcessInfo.processInfo.environment["THUIS_TEST_TIME_SCALE"] else { return 1 }
        guard let value = Double(text), value >= 1, value <= 100 else {
            let warning = Array("warning: THUIS_TEST_TIME_SCALE=\(text) ignored: expected a number 1-100\n".utf8)
            _ = warning.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            return 1
        }
        return value
    }()

    /// `duration` times `scale`.
    public static func scaled(_ duration: Duration) -> Duration {
        scale == 1 ? duration : duration * scale
    }
}
