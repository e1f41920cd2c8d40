import IntegrationSupport
import TestSupport
import Testing

/// The suites that talk to an emulator over a pty from blocking test code run one at a time: blocking
/// reads in parallel tests would starve the threads the emulator's dispatch queue and timeouts need on a
/// 2-core machine.
@Suite(.serialized, .endToEnd) enum EmulatorSerialSuite {}
