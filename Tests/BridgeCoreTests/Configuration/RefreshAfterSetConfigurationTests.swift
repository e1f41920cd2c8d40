import BridgeCore
import TestSupport
import Testing

/// `[zwave] refresh_after_set`: OpenZWave's verifying Get after a dimmer Set (off unless turned on).
@Suite struct RefreshAfterSetConfigurationTests {
    static let stick = ConfigFixture(zwave: .init(port: "/dev/zwave"))

    @Test func defaultsToFalse() throws {
        let zwave = try #require(try ConfigurationLoader.parse(text: Self.stick.text).zwave)
        #expect(!zwave.refreshAfterSet)
        #expect(!ZWaveSection(port: "/dev/zwave").refreshAfterSet)
    }

    @Test func trueKeepsTheVerifyingGet() throws {
        var fixture = Self.stick
        fixture.zwave?.refreshAfterSet = true
        let zwave = try #require(try ConfigurationLoader.parse(text: fixture.text).zwave)
        #expect(zwave.refreshAfterSet)
    }

    @Test func aNonBooleanIsRefusedWithItsKeyPath() {
        do {
            _ = try ConfigurationLoader.parse(text: Self.stick.appending("refresh_after_set = \"no\"").text)
            Issue.record("the configuration was accepted")
        } catch {
            #expect(error.problems.map(\.keyPath) == ["zwave.refresh_after_set"])
        }
    }
}
