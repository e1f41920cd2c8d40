import BridgeCore
import TestSupport
import Testing

/// The test doubles' waits end: what never comes fails the test (an issue) instead of hanging the suite.
@Suite struct BoundedWaitTests {
    @Test("FakeMQTTPort.waitFor a message that never comes: an issue, and the wait returns")
    func fakeMQTTPortWaitIsBounded() async throws {
        let port = FakeMQTTPort()
        let returned = try await finishing(within: .seconds(30)) {
            await withKnownIssue("the message never comes") {
                await port.waitFor("Thuis/never", limit: .milliseconds(100))
            }
            return true
        }
        #expect(returned == true, "waitFor did not return")
    }

    @Test("FakeDeviceBackend.waitForCommands for commands that never come: an issue, and the wait returns")
    func fakeBackendWaitIsBounded() async throws {
        let backend = FakeDeviceBackend(adapter: .zwave)
        let returned = try await finishing(within: .seconds(30)) {
            await withKnownIssue("no command comes") {
                await backend.waitForCommands(1, limit: .milliseconds(100))
            }
            return true
        }
        #expect(returned == true, "waitForCommands did not return")
    }

    @Test("a wait that is satisfied records nothing")
    func satisfiedWaitRecordsNothing() async {
        let port = FakeMQTTPort()
        async let waited: Void = port.waitFor("Thuis/a", payload: "1", limit: .seconds(30))
        await port.publish(topic: "Thuis/a", payload: Array("1".utf8), retain: false)
        await waited
    }
}
