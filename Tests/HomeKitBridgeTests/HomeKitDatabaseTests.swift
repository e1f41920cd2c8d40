import BridgeCore
import HomeKit
import HomeKitBridge
import Synchronization
import TestSupport
import Testing

/// The attribute database: what each device becomes, with fixed instance ids, and aids that follow the hardware.
extension HomeKitAccessoriesTests {
    @Test func theBridgeIsAid1AndADimmerIsALightbulbWithTwoButtons() async throws {
        try await withBridge { fixture in
            let database = await fixture.model.database()
            let bridge = try accessory(database, 1)
            #expect(types(bridge) == ["3E", "A2"])
            #expect(characteristic(service(bridge, iid: 1), iid: 5)?["value"] == "Thuis living")
            #expect(characteristic(service(bridge, iid: 8), iid: 9)?["value"] == "1.1.0")

            let light = try accessory(database, fixture.aid(Self.light))
            #expect(types(light) == ["3E", "43", "CC", "89", "89"])
            let information = service(light, iid: 1)
            #expect(characteristic(information, iid: 5)?["value"] == "bedroom light")
            #expect(characteristic(information, iid: 3)?["value"] == "FIBARO")
            #expect(characteristic(information, iid: 4)?["value"] == "FGD212")
            #expect(characteristic(information, iid: 6)?["value"] == "zwave:2")
            #expect(characteristic(information, iid: 2)?["perms"] == ["pw"])
            let bulb = service(light, iid: 10)
            #expect(bulb?["primary"] == true)
            #expect(characteristic(bulb, iid: 11)?["type"] == "25")
            #expect(characteristic(bulb, iid: 11)?["perms"] == ["pr", "pw", "ev"])
            let brightness = characteristic(bulb, iid: 12)
            #expect(brightness?["type"] == "8")
            #expect(brightness?["maxValue"] == 100)
            #expect(brightness?["unit"] == "percentage")
            // S1 (40) and S2 (50), labelled with arabic numerals.
            #expect(characteristic(service(light, iid: 30), iid: 31)?["value"] == 1)
            for button in [1, 2] {
                let stateless = service(light, iid: 30 + 10 * button)
                #expect(characteristic(stateless, iid: 31 + 10 * button)?["type"] == "73")
                #expect(characteristic(stateless, iid: 31 + 10 * button)?["valid-values"] == [0, 1, 2])
                #expect(characteristic(stateless, iid: 32 + 10 * button)?["value"] == .int(button))
            }
        }
    }

    @Test func aPowerNodeSocketIsAnOutletInUseWhileItDrawsPower() async throws {
        try await withBridge { fixture in
            let aid = fixture.aid(Self.socket)
            let outlet = service(try accessory(await fixture.model.database(), aid), iid: 10)
            #expect(outlet?["type"] == "47")
            #expect(characteristic(outlet, iid: 12)?["type"] == "26")
            #expect(characteristic(outlet, iid: 12)?["perms"] == ["pr", "ev"])
            let inUse = CharacteristicID(aid: aid, iid: 12)
            await fixture.bridge.apply(.update(Self.socket.source, .isOn(true)))
            await fixture.bridge.apply(.update(Self.socket.source, .power(.init(value: 12.5, precision: 1))))
            var reads = await fixture.model.read([inUse])
            #expect(try reads[inUse]?.get() == true)
            await fixture.bridge.apply(.update(Self.socket.source, .power(.init(value: 0, precision: 1))))
            reads = await fixture.model.read([inUse])
            #expect(try reads[inUse]?.get() == false)
        }
    }

    /// A TV: a Television with one Input Source per configured input (sorted), and a Television Speaker once its
    /// audio system reported (a change of structure).
    @Test func aTVIsATelevisionWithItsInputsAndASpeakerOnceItsAudioSystemReports() async throws {
        try await withBridge { fixture in
            let aid = fixture.aid(Self.tv)
            var tv = try accessory(await fixture.model.database(), aid)
            #expect(types(tv) == ["3E", "D8", "D9", "D9"])
            let television = service(tv, iid: 10)
            #expect(television?["linked"] == [110, 120])
            #expect(characteristic(television, iid: 13)?["value"] == "living tv")
            #expect(characteristic(television, iid: 14)?["value"] == 1)
            #expect(characteristic(service(tv, iid: 110), iid: 111)?["value"] == "appletv")
            #expect(characteristic(service(tv, iid: 120), iid: 121)?["value"] == "ps5")
            #expect(characteristic(service(tv, iid: 120), iid: 125)?["value"] == 2)

            await fixture.bridge.apply(.update(Self.tv.source, .volume(30)))
            try await waitForChange(fixture) { if case .structure = $0 { true } else { false } }
            tv = try accessory(await fixture.model.database(), aid)
            #expect(types(tv) == ["3E", "D8", "113", "D9", "D9"])
            #expect(service(tv, iid: 10)?["linked"] == [110, 120, 20])
            let speaker = service(tv, iid: 20)
            #expect(characteristic(speaker, iid: 22)?["value"] == 30)
            #expect(characteristic(speaker, iid: 23)?["value"] == 3)
            #expect(characteristic(speaker, iid: 24)?["perms"] == ["pw"])
            let volume = CharacteristicID(aid: aid, iid: 22)
            var reads = await fixture.model.read([volume])
            #expect(try reads[volume]?.get() == 30)

            // The input the TV reports is the active identifier.
            await fixture.bridge.apply(.update(Self.tv.source, .input("2.0.0.0")))
            let active = CharacteristicID(aid: aid, iid: 12)
            reads = await fixture.model.read([active])
            #expect(try reads[active]?.get() == 2)
        }
    }

    /// The aids come from the allocator by hardware address: another model (a restart) with the same allocator,
    /// and a device renamed in devices.toml, keep them; the instance ids are fixed.
    @Test func aidsAreStableAcrossRebuildsAndRenames() async throws {
        let allocator = Allocator()
        let first = Mutex<[Int: JSONValue]>([:])
        try await withBridge(allocator: allocator) { fixture in
            let serials = try serialNumbers(await fixture.model.database())
            first.withLock { $0 = serials }
        }
        let renamed = DeviceDescriptor(
            address: DeviceAddress(room: "hall", name: "lamp"), kind: .dimmer, source: Self.light.source, metered: true)
        try await withBridge(devices: [Self.tv, renamed, Self.socket], allocator: allocator) { fixture in
            let database = await fixture.model.database()
            #expect(try serialNumbers(database) == first.withLock { $0 })
            let light = try accessory(database, allocator.aid("zwave:2"))
            #expect(characteristic(service(light, iid: 1), iid: 5)?["value"] == "hall lamp")
            #expect(types(light).contains("43"))
        }
        #expect(first.withLock { $0 } == [1: "living", 2: "zwave:2", 3: "zwave:3:1", 4: "cec:0"])
    }

    /// Each accessory's SerialNumber (its hardware address; the bridge's name for aid 1), by aid.
    func serialNumbers(_ database: JSONValue) throws -> [Int: JSONValue] {
        guard case .array(let accessories)? = database["accessories"] else { throw TestSupportError("no accessories") }
        var serials: [Int: JSONValue] = [:]
        for entry in accessories {
            guard case .int(let aid)? = entry["aid"] else { continue }
            serials[aid] = characteristic(service(try accessory(database, aid), iid: 1), iid: 6)?["value"]
        }
        return serials
    }
}
