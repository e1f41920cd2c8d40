import BridgeCore
import Testing

@testable import ZWaveDriver

/// Central Scene (0x5B) values are buttons: the value's index is the button, its list item the key attribute + 1
/// (OpenZWave 1.6); the library's return to "inactive" is no action, other command classes are no buttons.
@Suite struct CentralSceneMappingTests {
    func value(cc: UInt8 = 0x5B, index: UInt16, _ content: ZWaveValue.Content) -> ZWaveValue {
        let id = ZWaveValueID(
            home: HomeID(rawValue: 0xC0FF_EE01), node: NodeID(5), genre: .user, commandClass: cc, instance: 1,
            index: index, type: .list, id: 1)
        return ZWaveValue(id: id, label: "Scene \(index)", units: "", readOnly: true, content: content)
    }

    @Test func keyAttributesBecomeButtonActions() throws {
        let pressed = try #require(ZWaveBackend.centralScene(value(index: 1, .list(value: 1, label: "Pressed 1 Time"))))
        #expect(pressed.button == 1 && pressed.action == .pressed)
        let held = try #require(ZWaveBackend.centralScene(value(index: 3, .list(value: 3, label: "Key Held down"))))
        #expect(held.button == 3 && held.action == .held)
        let released = try #require(ZWaveBackend.centralScene(value(index: 4, .list(value: 2, label: "Key Released"))))
        #expect(released.action == .released)
        let twice = try #require(ZWaveBackend.centralScene(value(index: 2, .list(value: 4, label: "Pressed 2 Times"))))
        #expect(twice.button == 2 && twice.action == .pressed2x)
        let five = try #require(ZWaveBackend.centralScene(value(index: 2, .list(value: 7, label: "Pressed 5 Times"))))
        #expect(five.action == .pressed5x)
    }

    @Test func inactiveIsNoActionAndOtherValuesAreNoButtons() throws {
        let inactive = try #require(ZWaveBackend.centralScene(value(index: 1, .list(value: 0, label: "Inactive"))))
        #expect(inactive.button == 1 && inactive.action == nil)
        #expect(ZWaveBackend.centralScene(value(index: 0, .int(2))) == nil)
        #expect(ZWaveBackend.centralScene(value(index: 257, .int(1000))) == nil)
        #expect(ZWaveBackend.centralScene(value(cc: 0x26, index: 1, .byte(3))) == nil)
    }

    @Test func aSceneListTellsTheButtonsActions() {
        // WallMote Quad (v2, 0x7F): every action; OpenZWave's v1 list: pressed, released, held.
        #expect(ZWaveBackend.buttonActions(listItems: [0, 1, 2, 3, 4, 5, 6, 7]) == ButtonAction.allCases)
        #expect(ZWaveBackend.buttonActions(listItems: [0, 1, 2, 3]) == [.pressed, .held, .released])
        #expect(ZWaveBackend.buttonActions(listItems: []) == ButtonAction.allCases)
    }
}

/// How Central Scene values make a device: buttons only (a battery beside them) are a `buttons` device; a node with
/// a switch keeps it and gains the buttons; a held button's repeated reports are one `held`.
@Suite struct CentralSceneAnnouncementTests {
    /// devices.toml: the WallMote Quad at node 6.
    static let wallmote = ZWaveDeviceConfig(node: 6, address: DeviceAddress(room: "hall", name: "wallmote"))

    @ZWaveBackendActor
    @Test func buttonsMakeAButtonsDeviceUnlessTheNodeIsADimmerAndHeldIsPublishedOnce() async {
        let seen = await announcements(configured: [Self.wallmote]) { announced in
            // The configured WallMote: its battery first (a sensor device), then its scenes.
            announced.sensorsFound([.battery: "%"], node: 6, instance: 1)
            announced.buttonsFound([1: ButtonAction.allCases], node: 6, instance: 1)
            announced.buttonsFound([2: ButtonAction.allCases], node: 6, instance: 1)
            // An unassigned key fob, and a dimmer with Central Scene.
            announced.buttonsFound([1: [.pressed, .held, .released]], node: 7, instance: 1)
            announced.identify(
                ZWaveValue(
                    id: ZWaveValueID(
                        home: HomeID(rawValue: 0xC0FF_EE01), node: NodeID(8), genre: .user, commandClass: 0x26,
                        instance: 1, index: 0, type: .byte, id: 2),
                    label: "Level", units: "", readOnly: false, content: .byte(0)))
            announced.buttonsFound([1: ButtonAction.allCases], node: 8, instance: 1)
            // Held three times (repeats), released; held again, OpenZWave's reset, held.
            for action: ButtonAction? in [.held, .held, .held, .released, .held, nil, .held] {
                announced.buttonReported(action, button: 1, node: 6, instance: 1)
            }
        }
        #expect(
            seen == [
                "identified zwave node 6 instance 1 sensor", #"sensors zwave node 6 instance 1 ["battery"]"#,
                "identified zwave node 6 instance 1 buttons",
                "buttons zwave node 6 instance 1 [1]", "buttons zwave node 6 instance 1 [2]",
                "discovered unassigned/node7 buttons", "buttons zwave node 7 instance 1 [1]",
                "discovered unassigned/node8 dimmer", "buttons zwave node 8 instance 1 [1]",
                "button 1 held", "button 1 released", "button 1 held", "button 1 held",
            ])
    }
}
