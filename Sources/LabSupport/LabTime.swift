import FoundationEssentials

/// How much longer than written a lab wait lasts: `THUIS_TEST_TIME_SCALE` from the environment, a number from 1 to
/// 100, 1 when unset. The tests set it for a sanitizer run (every process runs several times slower there); the
/// bench and the demo leave it unset. Every bound ``ChildProcess`` and ``MosquittoBroker`` wait for is multiplied by
/// it, and so is every bound of the tests (`TestTime` in TestSupport reads it here).
public enum LabTime {
    /// The scale; a value that is not a number from 1 to 100 stops the process with the reason.
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
}
