import BridgeCore
import HomeKit
import HomeKitBridge
import TestSupport
import Testing

/// Writes go through the bridge's command path (one command per device and write); offline devices and invalid
/// values are refused with nothing sent; the bridge's publications and scene clicks become changes.
extension HomeKitAccessoriesTests {
    @Test func brightness100IsOneSetOfLevel99() async throws {
        try await withBridge { fixture in
            let aid = fixture.aid(Self.light)
            let statuses = await fixture.model.write([(CharacteristicID(aid: aid, iid: 12), 100)])
            #expect(statuses == [CharacteristicID(aid: aid, iid: 12): .success])
            try await waitForCommands(fixture.zwave, 1)
            #expect(await fixture.zwave.commands == [.level(99)])
        }
    }

    /// On and Brightness in one request (what the Home app sends for a slider on a light that is off) are one
    /// command, not two; then a write of On alone, then off wins over a brightness.
    @Test func onAndBrightnessTogetherAreOneCommand() async throws {
        try await withBridge { fixture in
            let aid = fixture.aid(Self.light)
            let on = CharacteristicID(aid: aid, iid: 11)
            let brightness = CharacteristicID(aid: aid, iid: 12)
            let statuses = await fixture.model.write([(on, true), (brightness, 40)])
            #expect(statuses == [on: .success, brightness: .success])
            try await waitForCommands(fixture.zwave, 1)
            _ = await fixture.model.write([(on, 1)])
            try await waitForCommands(fixture.zwave, 2)
            _ = await fixture.model.write([(brightness, 70), (on, false)])
            try await waitForCommands(fixture.zwave, 3)
            // The socket's On is its own command.
            _ = await fixture.model.write([(CharacteristicID(aid: fixture.aid(Self.socket), iid: 11), false)])
            try await waitForCommands(fixture.zwave, 4)
            let commands = await fixture.zwave.commands
            // The bridge makes a dimmer's `on` its last level (99 before it reported one) and `off` level 0.
            #expect(commands == [.level(40), .level(99), .level(0), .off], "\(commands)")
        }
    }

    @Test func theTVsCharacteristicsBecomeItsCommands() async throws {
        try await withBridge { fixture in
            let aid = fixture.aid(Self.tv)
            await fixture.bridge.apply(.update(Self.tv.source, .muted(false)))
            try await waitForChange(fixture) { if case .structure = $0 { true } else { false } }
            let statuses = await fixture.model.write([
                (CharacteristicID(aid: aid, iid: 11), 1), (CharacteristicID(aid: aid, iid: 12), 1),
                (CharacteristicID(aid: aid, iid: 21), true), (CharacteristicID(aid: aid, iid: 22), 25),
            ])
            #expect(statuses.values.allSatisfy { $0 == .success }, "\(statuses)")
            try await waitForCommands(fixture.cec, 4)
            // The Volume Selector (the remote's volume keys) steps the volume.
            #expect(await fixture.model.write([(CharacteristicID(aid: aid, iid: 24), 1)]).values.first == .success)
            try await waitForCommands(fixture.cec, 5)
            let commands = await fixture.cec.commands
            #expect(commands.count == 5)
            #expect(commands.first == .on)
            #expect(commands.contains(.input(name: "appletv", address: "1.0.0.0")), "\(commands)")
            #expect(commands.contains(.mute(.on)), "\(commands)")
            #expect(commands.contains(.volume(.level(25))), "\(commands)")
            #expect(commands.last == .volume(.down))
        }
    }

    /// An offline device: reads and writes fail with -70402 and nothing is sent (the next accepted write is the
    /// only command); its fixed characteristics (name, model) stay readable.
    @Test func anOfflineDeviceAnswersServiceCommunicationFailureAndGetsNothing() async throws {
        try await withBridge { fixture in
            let aid = fixture.aid(Self.light)
            let on = CharacteristicID(aid: aid, iid: 11)
            let name = CharacteristicID(aid: aid, iid: 5)
            await fixture.bridge.apply(.availability(Self.light.source, online: false))
            let statuses = await fixture.model.write([(on, true), (CharacteristicID(aid: aid, iid: 12), 50)])
            #expect(statuses.values.allSatisfy { $0 == .serviceCommunicationFailure }, "\(statuses)")
            #expect(HAPStatus.serviceCommunicationFailure.rawValue == -70402)
            let reads = await fixture.model.read([on, name])
            #expect(throws: HAPStatus.serviceCommunicationFailure) { try reads[on]?.get() }
            #expect(try reads[name]?.get() == "bedroom light")

            try await expectNothingSentBefore(fixture)
        }
    }

    /// Wrong types and values out of range are invalidValue; read-only and unknown ids per the protocol; nothing
    /// of it is sent.
    @Test func invalidWritesAreRefusedAndNothingIsSent() async throws {
        try await withBridge { fixture in
            let aid = fixture.aid(Self.light)
            let tv = fixture.aid(Self.tv)
            let writes: [(CharacteristicID, JSONValue, HAPStatus)] = [
                (CharacteristicID(aid: aid, iid: 12), 101, .invalidValue),
                (CharacteristicID(aid: aid, iid: 12), -1, .invalidValue),
                (CharacteristicID(aid: aid, iid: 12), "50", .invalidValue),
                (CharacteristicID(aid: aid, iid: 11), 2, .invalidValue),
                (CharacteristicID(aid: tv, iid: 12), 3, .invalidValue),
                (CharacteristicID(aid: aid, iid: 5), "x", .readOnly),
                (CharacteristicID(aid: aid, iid: 99), true, .resourceDoesNotExist),
                (CharacteristicID(aid: 999, iid: 11), true, .resourceDoesNotExist),
            ]
            for (id, value, status) in writes {
                #expect(await fixture.model.write([(id, value)]) == [id: status], "\(id) \(value)")
            }
            let identify = CharacteristicID(aid: tv, iid: 2)
            let reads = await fixture.model.read([identify])
            #expect(throws: HAPStatus.writeOnly) { try reads[identify]?.get() }
            #expect(await fixture.model.eventStatus(CharacteristicID(aid: aid, iid: 11)) == .success)
            #expect(await fixture.model.eventStatus(CharacteristicID(aid: aid, iid: 5)) == .notificationNotSupported)
            #expect(await fixture.model.eventStatus(CharacteristicID(aid: aid, iid: 99)) == .resourceDoesNotExist)

            try await expectNothingSentBefore(fixture)
        }
    }

    @Test func aStatePublicationIsAValuesChange() async throws {
        try await withBridge { fixture in
            let aid = fixture.aid(Self.light)
            await fixture.bridge.apply(.update(Self.light.source, .level(99)))
            try await waitForChange(fixture) {
                let values = Self.values($0)
                return values[CharacteristicID(aid: aid, iid: 11)] == true
                    && values[CharacteristicID(aid: aid, iid: 12)] == 100
            }
            await fixture.bridge.apply(.update(Self.light.source, .level(0)))
            // Off: On false, the brightness stays the last level's.
            try await waitForChange(fixture) {
                let values = Self.values($0)
                return values == [CharacteristicID(aid: aid, iid: 11): false]
            }
        }
    }

    /// A scene click is a ProgrammableSwitchEvent on its button: S1 double (14) is 1, S2 long (22) is 2; a press
    /// HomeKit has no event for (a triple click, 25) is none.
    @Test func aSceneClickIsASwitchEvent() async throws {
        try await withBridge { fixture in
            let aid = fixture.aid(Self.light)
            await fixture.bridge.apply(.scene(node: 2, instance: nil, sceneID: 25))
            await fixture.bridge.apply(.scene(node: 2, instance: nil, sceneID: 14))
            try await waitForChange(fixture) { Self.values($0) == [CharacteristicID(aid: aid, iid: 41): 1] }
            await fixture.bridge.apply(.scene(node: 2, instance: nil, sceneID: 22))
            try await waitForChange(fixture) { Self.values($0) == [CharacteristicID(aid: aid, iid: 51): 2] }
            let events = await fixture.changes.changes.filter { Self.values($0).keys.contains { $0.iid > 40 } }
            #expect(events.count == 2)
            let event = CharacteristicID(aid: aid, iid: 51)
            let reads = await fixture.model.read([event])
            #expect(try reads[event]?.get() == .null)
        }
    }

    /// Writes the socket's On, which is sent, and checks that it is the only command the Z-Wave backend got: the
    /// writes before it sent nothing (a command refused later would be queued before it).
    func expectNothingSentBefore(_ fixture: Fixture) async throws {
        _ = await fixture.model.write([(CharacteristicID(aid: fixture.aid(Self.socket), iid: 11), true)])
        try await waitForCommands(fixture.zwave, 1)
        #expect(await fixture.zwave.executed.map(\.0) == [Self.socket.address])
    }
}
