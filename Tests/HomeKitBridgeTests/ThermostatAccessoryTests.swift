import BridgeCore
import HomeKit
import HomeKitBridge
import TestSupport
import Testing

/// A thermostat (issue 44): a Thermostat service at the device's iid 10 with the device's range and modes, its
/// temperature in it (no Temperature Sensor of its own), values from what the bridge publishes, writes that become
/// `/setpoint/set` and `/mode/set`.
extension HomeKitAccessoriesTests {
    static let radiator = DeviceDescriptor(
        address: DeviceAddress(room: "bedroom", name: "radiator"), kind: .thermostat,
        source: .zwave(node: 6, instance: nil), sensors: [.temperature: "°C", .battery: "%", .batteryLow: ""],
        thermostat: ThermostatTraits(
            minimum: 8, maximum: 28, unit: "°C", precision: 1, modes: [.off, .heat, .eco, .boost]))

    @Test func aThermostatIsAThermostatServiceWithTheDevicesRangeAndModes() async throws {
        try await withBridge(devices: [Self.radiator]) { fixture in
            let radiator = try accessory(await fixture.model.database(), fixture.aid(Self.radiator))
            // Thermostat and Battery Service: the temperature is the Thermostat's, no Temperature Sensor.
            #expect(types(radiator) == ["3E", "4A", "96"])
            let thermostat = service(radiator, iid: 10)
            #expect(thermostat?["primary"] == true)
            #expect(characteristic(thermostat, iid: 11)?["type"] == "F")
            #expect(characteristic(thermostat, iid: 12)?["type"] == "33")
            #expect(characteristic(thermostat, iid: 12)?["valid-values"] == [0, 1], "heat only")
            #expect(characteristic(thermostat, iid: 13)?["type"] == "11")
            let target = characteristic(thermostat, iid: 14)
            #expect(target?["type"] == "35" && target?["perms"] == ["pr", "pw", "ev"])
            #expect(target?["minValue"] == .double(8) && target?["maxValue"] == .double(28))
            #expect(target?["minStep"] == .double(0.5))
            #expect(characteristic(thermostat, iid: 15)?["type"] == "36")

            let node = Self.radiator.source
            await fixture.bridge.apply(.update(node, .setpoint(DeviceState.Measurement(value: 20, precision: 1))))
            await fixture.bridge.apply(.update(node, .mode(.eco)))
            await fixture.bridge.apply(.update(node, .sensor(.temperature, measurement(19.5))))
            #expect(await read(fixture, Self.radiator, 14) == .double(20))
            #expect(await read(fixture, Self.radiator, 13) == .double(19.5))
            // Eco heats: Target and Current Heating Cooling State 1.
            #expect(await read(fixture, Self.radiator, 12) == .int(1))
            #expect(await read(fixture, Self.radiator, 11) == .int(1))
            #expect(await read(fixture, Self.radiator, 15) == .int(0))
            await fixture.bridge.apply(.update(node, .mode(.off)))
            #expect(await read(fixture, Self.radiator, 12) == .int(0))
        }
    }

    @Test func thermostatWritesAreSetpointAndModeCommands() async throws {
        try await withBridge(devices: [Self.radiator]) { fixture in
            let aid = fixture.aid(Self.radiator)
            let state = CharacteristicID(aid: aid, iid: 12)
            let target = CharacteristicID(aid: aid, iid: 14)
            #expect(await fixture.model.write([(target, .double(22.5))]) == [target: .success])
            try await waitForCommands(fixture.zwave, 1)
            #expect(await fixture.model.write([(state, 0)]) == [state: .success])
            try await waitForCommands(fixture.zwave, 2)
            #expect(await fixture.zwave.commands == [.setpoint(22.5), .mode(.off)])
            // Out of the device's range, a mode it does not have (cool): refused, nothing sent.
            #expect(await fixture.model.write([(target, .double(30))]) == [target: .invalidValue])
            #expect(await fixture.model.write([(state, 2)]) == [state: .invalidValue])
            #expect(await fixture.zwave.commands.count == 2)
        }
    }
}
