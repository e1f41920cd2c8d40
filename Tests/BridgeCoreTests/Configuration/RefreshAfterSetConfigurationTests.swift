import BridgeCore
import Testing

/// `[zwave] refresh_after_set`: OpenZWave's verifying Get after a dimmer Set (off unless turned on).
@Suite struct RefreshAfterSetConfigurationTests {
    static let head = "[bridge]\nname = \"living\"\n[zwave]\nport = \"/dev/zwave\"\n"

    @Test func defaultsToFalse() throws {
        let zwave = try #require(try ConfigurationLoader.parse(text: Self.head).zwave)
        #expect(!zwave.refreshAfterSet)
        #expect(!ZWaveSection(port: "/dev/zwave").refreshAfterSet)
    }

    @Test func trueKeepsTheVerifyingGet() throws {
        let zwave = try #require(try ConfigurationLoader.parse(text: Self.head + "refresh_after_set = true\n").zwave)
        #expect(zwave.refreshAfterSet)
    }

    @Test func aNonBooleanIsRefusedWithItsKeyPath() {
        do {
            _ = try ConfigurationLoader.parse(text: Self.head + "refresh_after_set = \"no\"\n")
            Issue.record("the configuration was accepted")
        } catch {
            #expect(error.problems.map(\.keyPath) == ["zwave.refresh_after_set"])
        }
    }
}
