import Testing

/// The end-to-end suites: each test starts real processes (a mosquitto, the `thuis-bridge` binary with
/// libopenzwave or libcec, CLI clients) next to in-process emulators. They run one at a time so that a
/// 2-core machine is not overloaded into timeouts; the unit and driver suites still run beside them.
@Suite(.serialized) enum ProcessSuite {}
