import BridgeCore
import TestSupport
import Testing

/// `[[zwave.device]] wake_up_interval`: a battery node's desired wake-up interval in seconds, 0 to 2^24 - 1.
@Suite struct WakeUpIntervalConfigurationTests {
    func fixture(_ interval: Int?) -> ConfigFixture {
        ConfigFixture(
            zwave: .init(
                port: "/dev/zwave",
                devices: [.init(node: 12, room: "hall", name: "motion", wakeUpInterval: interval)]))
    }

    @Test func aDeviceTakesAWakeUpIntervalOrLeavesItUnset() throws {
        let unset = try #require(try ConfigurationLoader.parse(text: fixture(nil).text).zwave)
        #expect(unset.devices.first?.wakeUpInterval == nil)
        for seconds in [0, 240, 16_777_215] {
            let section = try #require(try ConfigurationLoader.parse(text: fixture(seconds).text).zwave)
            #expect(section.devices.first?.wakeUpInterval == seconds)
        }
    }

    @Test func anIntervalOutOfRangeIsRefusedWithItsKeyPath() {
        for seconds in [-1, 16_777_216] {
            do {
                _ = try ConfigurationLoader.parse(text: fixture(seconds).text)
                Issue.record("wake_up_interval = \(seconds) was accepted")
            } catch {
                #expect(error.problems.map(\.keyPath) == ["zwave.device[0].wake_up_interval"], "\(seconds)")
            }
        }
    }
}
