import BridgeCore
import TestSupport
import Testing

/// The typed entry (`Bridge.submit`) that a dashboard and HomeKit feed: the same check, queue and coalescing as an
/// MQTT message, and a refusal published as the `command_rejected` an MQTT client would get for the same command.
extension BridgeTests {
    @Test func aTypedCommandThatDoesNotFitItsDeviceIsRefusedAndNotSent() async throws {
        try await withBridge { bridge, mqtt, zwave, cec in
            let refusal = await bridge.submit(.volume(.up), to: bedroom.address, from: .homeKit)
            #expect(refusal?.reason == "a dimmer has no volume, mute or input")
            #expect(await bridge.submit(.level(40), to: receiver.address, from: .dashboard(client: 3)) != nil)
            #expect(await bridge.submit(.level(120), to: bedroom.address, from: .homeKit) != nil)
            #expect(await bridge.submit(.volume(.level(101)), to: tv.address, from: .homeKit) != nil)
            #expect(await bridge.submit(.input(name: nil, address: "x"), to: tv.address, from: .homeKit) != nil)
            let unknown = DeviceAddress(room: "attic", name: "lamp")
            #expect(await bridge.submit(.on, to: unknown, from: .homeKit)?.reason.hasPrefix("unknown device") == true)
            let events = await mqtt.messages(on: "Thuis/bridge/living/event").map(\.payload)
            #expect(events.count == 6, "\(events)")
            // The topic and payload are the command's MQTT form.
            #expect(
                events.first?.hasPrefix(
                    #"{"type":"command_rejected","topic":"Thuis/device/bedroom/light/volume/set","payload":"up","#)
                    == true, "\(events)")
            // What fits goes through.
            #expect(await bridge.submit(.level(40), to: bedroom.address, from: .homeKit) == nil)
            await zwave.waitForCommands(1)
            #expect(await zwave.commands == [.level(40)])
            #expect(await cec.commands.isEmpty)
        }
    }

    /// A HomeKit write and an MQTT `/set` for one busy device share its queue: the newer level replaces the older
    /// one, whichever front end sent either.
    @Test func typedAndMQTTCommandsShareOneQueue() async throws {
        try await withBridge { bridge, _, zwave, _ in
            await zwave.hold()
            await bridge.receive(set("Thuis/device/bedroom/light/set", "10"))
            await zwave.waitForCommands(1)
            #expect(await bridge.submit(.level(20), to: bedroom.address, from: .homeKit) == nil)
            await bridge.receive(set("Thuis/device/bedroom/light/set", "30"))
            #expect(await bridge.submit(.level(40), to: bedroom.address, from: .dashboard(client: 1)) == nil)
            await zwave.releaseAll()
            await zwave.waitForCommands(2)
            #expect(await zwave.commands == [.level(10), .level(40)])
        }
    }

    /// Every command's MQTT form parses back into the same command for its device: the refusal events of typed
    /// commands name what an MQTT client would have sent.
    @Test func everyCommandsMQTTFormParsesBack() throws {
        let topics = TopicScheme(prefix: "Thuis", bridge: "living")
        let commands: [(DeviceCommand, DeviceDescriptor)] = [
            (.on, bedroom), (.off, bedroom), (.toggle, bedroom), (.level(0), bedroom), (.level(99), bedroom),
            (.refresh, bedroom), (.on, receiver), (.off, tv), (.volume(.up), tv), (.volume(.down), tv),
            (.volume(.level(25)), tv), (.mute(.on), tv), (.mute(.toggle), tv),
            (.input(name: "appletv", address: "1.0.0.0"), tv), (.input(name: nil, address: "2.0.0.0"), tv),
        ]
        for (command, device) in commands {
            #expect(command.refusal(for: device) == nil, "\(command)")
            let wire = command.wire(topics.device(device.address))
            let route = try topics.route(wire.topic).get()
            let parsed = try PayloadParser.command(for: route, payload: Array(wire.payload.utf8), device: device)
            #expect(parsed == command, "\(wire)")
        }
    }
}
