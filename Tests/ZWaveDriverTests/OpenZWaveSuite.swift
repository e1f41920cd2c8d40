import IntegrationSupport
import LabSupport
import TestSupport
import Testing

/// OpenZWave's Manager is a process-wide singleton: every test that starts it lives in a suite nested
/// in this serialized parent (`extension OpenZWaveSuite { @Suite struct MyTests { ... } }`), so no two
/// of them run at once. Emulator integration suites (files named `Emulator*`) use it too.
@Suite(.serialized, .endToEnd(exclusive: true)) enum OpenZWaveSuite {}
