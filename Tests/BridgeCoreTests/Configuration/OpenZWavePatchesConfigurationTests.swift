import BridgeCore
import TestSupport
import Testing

/// `[zwave] openzwave_patches`: the bridge's patches of OpenZWave, on unless turned off.
@Suite struct OpenZWavePatchesConfigurationTests {
    static let stick = ConfigFixture(zwave: .init(port: "/dev/zwave"))

    @Test func defaultsToTrue() throws {
        let zwave = try #require(try ConfigurationLoader.parse(text: Self.stick.text).zwave)
        #expect(zwave.openZWavePatches)
        #expect(ZWaveSection(port: "/dev/zwave").openZWavePatches)
    }

    @Test func falseRunsOpenZWaveAsShipped() throws {
        var fixture = Self.stick
        fixture.zwave?.openZWavePatches = false
        let zwave = try #require(try ConfigurationLoader.parse(text: fixture.text).zwave)
        #expect(!zwave.openZWavePatches)
    }

    @Test func aNonBooleanIsRefusedWithItsKeyPath() {
        do {
            _ = try ConfigurationLoader.parse(text: Self.stick.appending("openzwave_patches = 1").text)
            Issue.record("the configuration was accepted")
        } catch {
            #expect(error.problems.map(\.keyPath) == ["zwave.openzwave_patches"])
        }
    }
}
