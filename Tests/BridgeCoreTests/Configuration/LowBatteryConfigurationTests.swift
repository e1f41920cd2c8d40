import BridgeCore
import TestSupport
import Testing

/// `[zwave] low_battery`: the percentage below which a battery is low; 20 unless set, 0 never.
@Suite struct LowBatteryConfigurationTests {
    static let stick = ConfigFixture(zwave: .init(port: "/dev/zwave"))

    @Test func defaultsToTwentyAndTakesZeroToHundred() throws {
        #expect(try #require(try ConfigurationLoader.parse(text: Self.stick.text).zwave).lowBattery == 20)
        for value in [0, 35, 100] {
            let text = Self.stick.appending("low_battery = \(value)").text
            #expect(try #require(try ConfigurationLoader.parse(text: text).zwave).lowBattery == value)
        }
    }

    @Test func aValueOutsideThePercentagesIsRefusedWithItsKeyPath() {
        for line in ["low_battery = -1", "low_battery = 101", "low_battery = \"20%\"", "low_battery = 20.5"] {
            do {
                _ = try ConfigurationLoader.parse(text: Self.stick.appending(line).text)
                Issue.record("\(line) was accepted")
            } catch {
                #expect(error.problems.map(\.keyPath) == ["zwave.low_battery"], "\(line)")
            }
        }
    }
}
