import BridgeCore
import Testing

/// Thermostats by command class: their modes, setpoint range and reports.
@Suite struct ZWaveThermostatMappingTests {
    /// A mode (index 0) or a setpoint type makes a thermostat; the capabilities' indexes (101, 201), other command
    /// classes' values do not.
    @Test func aModeOrASetpointMakesAThermostat() {
        #expect(ZWaveThermostatMapping.isThermostatValue(commandClass: 0x40, index: 0))
        #expect(ZWaveThermostatMapping.isThermostatValue(commandClass: 0x43, index: 1))
        #expect(ZWaveThermostatMapping.isThermostatValue(commandClass: 0x43, index: 11))
        #expect(!ZWaveThermostatMapping.isThermostatValue(commandClass: 0x43, index: 101))
        #expect(!ZWaveThermostatMapping.isThermostatValue(commandClass: 0x43, index: 201))
        #expect(!ZWaveThermostatMapping.isThermostatValue(commandClass: 0x26, index: 0))
        #expect(!ZWaveThermostatMapping.isThermostatValue(commandClass: 0x42, index: 0))
    }

    /// The Spirit's modes (0, 1, 11, 15, 31) are off, heat, eco, boost and manufacturer_specific; a mode without a
    /// word (6, fan only) is left out, and its report publishes nothing.
    @Test func modesByTheirZWaveNumbers() {
        let traits = ZWaveThermostatMapping.traits(
            commandClass: 0x40, index: 0, units: "", precision: nil, value: nil, listItems: [0, 1, 6, 11, 15, 31])
        #expect(traits?.modes == [.off, .heat, .eco, .boost, .manufacturerSpecific])
        #expect(ZWaveThermostatMapping.update(commandClass: 0x40, index: 0, reading: .listItem(11)) == .mode(.eco))
        #expect(ZWaveThermostatMapping.update(commandClass: 0x40, index: 0, reading: .listItem(6)) == nil)
        #expect(ZWaveThermostatMapping.modeNumbers[.boost] == 15)
    }

    /// The range: the v3 capabilities (101, 201), else the product's declared range, else 5-30 °C; the unit `C` is
    /// `°C`; the step 0.5 for a device that reports decimals.
    @Test func theSetpointRangeUnitAndStep() throws {
        let setpoint = ZWaveThermostatMapping.traits(
            commandClass: 0x43, index: 1, units: "C", precision: 1, value: 20, declared: (8, 28))
        #expect(setpoint?.range == 8...28 && setpoint?.temperatureUnit == "°C" && setpoint?.step == 0.5)
        let undeclared = ZWaveThermostatMapping.traits(
            commandClass: 0x43, index: 1, units: "C", precision: 0, value: 20)
        #expect(undeclared?.range == 5...30 && undeclared?.step == 1)
        let minimum = ZWaveThermostatMapping.traits(
            commandClass: 0x43, index: 101, units: "C", precision: nil, value: 4.5)
        let maximum = ZWaveThermostatMapping.traits(
            commandClass: 0x43, index: 201, units: "C", precision: nil, value: 29.5)
        let merged = try #require(undeclared).merging(try #require(minimum)).merging(try #require(maximum))
        #expect(merged.range == 4.5...29.5 && merged.precision == 0)
        // A later report's precision replaces; a trait the newer one does not tell stays.
        #expect(merged.merging(ThermostatTraits(precision: 1)).step == 0.5)
        #expect(merged.merging(ThermostatTraits(modes: [.heat])).range == 4.5...29.5)
        #expect(ThermostatTraits(unit: "°F").range == 41...86)
    }

    /// A heating setpoint report is the setpoint in its precision; the operating state in words.
    @Test func reports() {
        #expect(
            ZWaveThermostatMapping.update(commandClass: 0x43, index: 1, reading: .decimal(21.5, precision: 1))
                == .setpoint(DeviceState.Measurement(value: 21.5, precision: 1)))
        #expect(
            ZWaveThermostatMapping.update(commandClass: 0x43, index: 11, reading: .decimal(16, precision: 1)) == nil)
        #expect(
            ZWaveThermostatMapping.update(commandClass: 0x42, index: 0, reading: .listItem(1))
                == .operatingState("heating"))
        #expect(ZWaveThermostatMapping.setpointText(8, precision: 1) == "8.0")
        #expect(ZWaveThermostatMapping.setpointText(28, precision: 1) == "28.0")
        #expect(ZWaveThermostatMapping.setpointText(21, precision: 2) == "21.00")
        // OpenZWave would send 128-255 in one byte, which the device reads as negative: one decimal more.
        #expect(ZWaveThermostatMapping.setpointText(21.5, precision: 1) == "21.50")
        #expect(ZWaveThermostatMapping.setpointText(12.8, precision: 1) == "12.80")
        #expect(ZWaveThermostatMapping.setpointText(30.5, precision: 1) == "30.5")
        #expect(ZWaveThermostatMapping.setpointText(22, precision: 0) == "22")
    }
}
