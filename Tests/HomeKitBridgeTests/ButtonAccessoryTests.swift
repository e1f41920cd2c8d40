import BridgeCore
import HomeKit
import HomeKitBridge
import Synchronization
import TestSupport
import Testing

/// Scene buttons (Central Scene, issue 44): a Stateless Programmable Switch per button with its Service Label Index
/// and a Service Label on the accessory, the actions HomeKit knows as switch events, and the buttons remembered
/// across a restart before the interview.
extension HomeKitAccessoriesTests {
    static let wallmote = DeviceDescriptor(
        address: DeviceAddress(room: "hall", name: "wallmote"), kind: .buttons, source: .zwave(node: 7, instance: nil),
        sensors: [.battery: "%"]
    ).adding(buttons: [1: ButtonAction.allCases, 2: ButtonAction.allCases, 3: ButtonAction.allCases])

    @Test func aWallControllerHasASwitchPerButtonAndTheActionsAreSwitchEvents() async throws {
        try await withBridge(devices: [Self.wallmote]) { fixture in
            let services = try accessory(await fixture.model.database(), fixture.aid(Self.wallmote))
            #expect(types(services) == ["3E", "96", "CC", "89", "89", "89"])
            #expect(
                services.compactMap { if case .int(let iid)? = $0["iid"] { iid } else { nil } } == [
                    1, 270, 30, 40, 50, 60,
                ])
            #expect(characteristic(service(services, iid: 30), iid: 31)?["value"] == 1)  // arabic numerals
            for (button, iid) in [(1, 40), (2, 50), (3, 60)] {
                #expect(characteristic(service(services, iid: iid), iid: iid + 1)?["type"] == "73")
                #expect(characteristic(service(services, iid: iid), iid: iid + 2)?["value"] == .int(button))
            }
            // The switch event reads null; an action HomeKit knows is an event, the others are not.
            let second = CharacteristicID(aid: fixture.aid(Self.wallmote), iid: 51)
            #expect(await read(fixture, Self.wallmote, 51) == .null)
            #expect(await fixture.model.eventStatus(second) == .success)
            let actions: [(ButtonAction, Int?)] = [
                (.pressed, 0), (.pressed3x, nil), (.released, nil), (.pressed2x, 1), (.held, 2),
            ]
            for (action, event) in actions {
                await fixture.bridge.apply(.button(Self.wallmote.source, button: 2, action))
                if let event { try await waitForChange(fixture) { Self.values($0)[second] == .int(event) } }
            }
        }
    }

    /// The buttons are remembered with the kind: a start before the interview serves the same switches.
    @Test func aWallControllersButtonsStayAcrossARestart() async throws {
        let allocator = Allocator()
        let memory = Memory()
        let before = try await firstStart(Self.wallmote, allocator: allocator, memory: memory)
        #expect(memory.kinds.withLock { $0["zwave:7"] } == "buttons+sensors:battery=%+buttons:1,2,3")
        let guessed = DeviceDescriptor(
            address: Self.wallmote.address, kind: .dimmer, source: Self.wallmote.source, kindKnown: false)
        try await withBridge(devices: [guessed], allocator: allocator, memory: memory.memory) { fixture in
            #expect(structure(await fixture.model.database()) == before)
        }
    }
}
