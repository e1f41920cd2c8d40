import BridgeCore
import TestSupport
import Testing

/// `[zwave] ping_silent_after`: seconds before a silent mains-powered node is pinged; 10 minutes unless set, 0 off.
@Suite struct PingSilentAfterConfigurationTests {
    static let stick = ConfigFixture(zwave: .init(port: "/dev/zwave"))

    @Test func defaultsToTenMinutesAndTakesZeroForOff() throws {
        #expect(try #require(try ConfigurationLoader.parse(text: Self.stick.text).zwave).pingSilentAfter == 600)
        var fixture = Self.stick
        fixture.zwave?.pingSilentAfter = 0
        #expect(try #require(try ConfigurationLoader.parse(text: fixture.text).zwave).pingSilentAfter == 0)
        fixture.zwave?.pingSilentAfter = 30
        #expect(try #require(try ConfigurationLoader.parse(text: fixture.text).zwave).pingSilentAfter == 30)
    }

    @Test func aNegativeOrNonIntegerValueIsRefusedWithItsKeyPath() {
        for line in ["ping_silent_after = -1", "ping_silent_after = \"10m\"", "ping_silent_after = 90000"] {
            do {
                _ = try ConfigurationLoader.parse(text: Self.stick.appending(line).text)
                Issue.record("\(line) was accepted")
            } catch {
                #expect(error.problems.map(\.keyPath) == ["zwave.ping_silent_after"], "\(line)")
            }
        }
    }
}
