import BridgeCore
import HomeKit
import HomeKitBridge
import TestSupport
import Testing

/// A door lock is a Lock Mechanism and a roller shutter a Window Covering (issue 44): their characteristics follow
/// what the bridge publishes, and their writes are the lock's and the cover's commands.
extension HomeKitAccessoriesTests {
    static let doorLock = DeviceDescriptor(
        address: DeviceAddress(room: "hall", name: "door"), kind: .lock, source: .zwave(node: 7, instance: nil),
        sensors: [.battery: "%"])
    static let shutter = DeviceDescriptor(
        address: DeviceAddress(room: "living", name: "shutter"), kind: .cover, source: .zwave(node: 4, instance: nil))

    @Test func aLockIsALockMechanismAndACoverAWindowCovering() async throws {
        try await withBridge(devices: [Self.doorLock, Self.shutter]) { fixture in
            let lock = try accessory(await fixture.model.database(), fixture.aid(Self.doorLock))
            #expect(types(lock) == ["3E", "45", "96"])
            #expect(service(lock, iid: 10)?["primary"] == true)
            #expect(characteristic(service(lock, iid: 10), iid: 11)?["type"] == "1D")
            #expect(characteristic(service(lock, iid: 10), iid: 11)?["valid-values"] == [0, 1, 2, 3])
            #expect(characteristic(service(lock, iid: 10), iid: 12)?["type"] == "1E")
            #expect(characteristic(service(lock, iid: 10), iid: 12)?["perms"] == ["pr", "pw", "ev"])
            let cover = try accessory(await fixture.model.database(), fixture.aid(Self.shutter))
            #expect(types(cover) == ["3E", "8C"])
            let covering = service(cover, iid: 10)
            #expect(
                [11, 12, 13, 14].map { characteristic(covering, iid: $0)?["type"] } == ["6D", "7C", "72", "6F"])
            #expect(characteristic(covering, iid: 14)?["perms"] == ["pw"])
        }
    }

    @Test func theLocksStateAndWrites() async throws {
        try await withBridge(devices: [Self.doorLock]) { fixture in
            let device = Self.doorLock
            let aid = fixture.aid(device)
            // Before a report: unknown, secured the target.
            #expect(await read(fixture, device, 11) == 3)
            await fixture.bridge.apply(.update(device.source, .lock(.unlocked)))
            #expect(await read(fixture, device, 11) == 0)
            #expect(await read(fixture, device, 12) == 0)
            await fixture.bridge.apply(.update(device.source, .lock(.locked)))
            try await waitForChange(fixture) { Self.values($0)[CharacteristicID(aid: aid, iid: 11)] == 1 }
            #expect(await read(fixture, device, 12) == 1)
            await fixture.bridge.apply(.update(device.source, .lock(.jammed)))
            try await waitForChange(fixture) { Self.values($0)[CharacteristicID(aid: aid, iid: 11)] == 2 }
            #expect(await read(fixture, device, 12) == 1, "the target stays where it was")
            // Writes: unsecured unlocks, secured locks; LockCurrentState is read-only.
            let target = CharacteristicID(aid: aid, iid: 12)
            #expect(await fixture.model.write([(target, 0)]) == [target: .success])
            #expect(await read(fixture, device, 12) == 0, "the written target shows at once")
            #expect(await fixture.model.write([(target, 1)]) == [target: .success])
            try await waitForCommands(fixture.zwave, 2)
            #expect(await fixture.zwave.commands == [.setLocked(false), .setLocked(true)])
            let current = CharacteristicID(aid: aid, iid: 11)
            #expect(await fixture.model.write([(current, 1)]) == [current: .readOnly])
            #expect(await fixture.model.write([(target, 2)]) == [target: .invalidValue])
        }
    }

    @Test func theCoversPositionMovementAndWrites() async throws {
        try await withBridge(devices: [Self.shutter]) { fixture in
            let device = Self.shutter
            let aid = fixture.aid(device)
            await fixture.bridge.apply(.update(device.source, .level(99)))
            #expect(await read(fixture, device, 11) == 100)
            #expect(await read(fixture, device, 12) == 100)
            #expect(await read(fixture, device, 13) == 2)
            // TargetPosition 30: the level 30; while it closes towards it, the target is 30 and the state closing.
            let target = CharacteristicID(aid: aid, iid: 12)
            #expect(await fixture.model.write([(target, 30)]) == [target: .success])
            try await waitForCommands(fixture.zwave, 1)
            await fixture.bridge.apply(.update(device.source, .level(80)))
            await fixture.bridge.apply(.update(device.source, .target(30)))
            try await waitForChange(fixture) { Self.values($0)[CharacteristicID(aid: aid, iid: 13)] == 0 }
            #expect(await read(fixture, device, 11) == 80)
            #expect(await read(fixture, device, 12) == 30)
            // HoldPosition: stop; it stands at 55, its target its position.
            let hold = CharacteristicID(aid: aid, iid: 14)
            #expect(await fixture.model.write([(hold, true)]) == [hold: .success])
            try await waitForCommands(fixture.zwave, 2)
            await fixture.bridge.apply(.update(device.source, .level(55)))
            await fixture.bridge.apply(.update(device.source, .target(55)))
            try await waitForChange(fixture) { Self.values($0)[CharacteristicID(aid: aid, iid: 13)] == 2 }
            #expect(await read(fixture, device, 12) == 55)
            // Opening with no target written here (another front end's `open`): the end of travel.
            await fixture.bridge.apply(.update(device.source, .target(99)))
            try await waitForChange(fixture) { Self.values($0)[CharacteristicID(aid: aid, iid: 13)] == 1 }
            #expect(await read(fixture, device, 12) == 100)
            // TargetPosition 100 is the level 99.
            #expect(await fixture.model.write([(target, 100)]) == [target: .success])
            try await waitForCommands(fixture.zwave, 3)
            #expect(await fixture.zwave.commands == [.level(30), .stop, .level(99)])
            #expect(await fixture.model.write([(target, 101)]) == [target: .invalidValue])
        }
    }
}
