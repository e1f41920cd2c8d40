import Testing

@testable import ZWaveDriver

/// Central Scene (0x5B) values become scene ids `<scene> * 10 + <key attribute>`; the library's return to
/// "inactive" is not an event, and other command classes are not scenes.
@Suite struct CentralSceneMappingTests {
    func value(cc: UInt8 = 0x5B, index: UInt16, _ content: ZWaveValue.Content) -> ZWaveValue {
        let id = ZWaveValueID(
            home: HomeID(rawValue: 0xC0FF_EE01), node: NodeID(5), genre: .user, commandClass: cc, instance: 1,
            index: index, type: .list, id: 1)
        return ZWaveValue(id: id, label: "Scene \(index)", units: "", readOnly: true, content: content)
    }

    @Test func keyAttributesBecomeSceneIDs() {
        #expect(ZWaveBackend.centralScene(value(index: 1, .list(value: 1, label: "Pressed 1 Time"))) == 10)
        #expect(ZWaveBackend.centralScene(value(index: 1, .list(value: 3, label: "Key Held down"))) == 12)
        #expect(ZWaveBackend.centralScene(value(index: 2, .list(value: 4, label: "Pressed 2 Times"))) == 23)
    }

    @Test func inactiveAndOtherClassesAreNotScenes() {
        #expect(ZWaveBackend.centralScene(value(index: 1, .list(value: 0, label: "Inactive"))) == nil)
        #expect(ZWaveBackend.centralScene(value(index: 0, .int(2))) == nil)
        #expect(ZWaveBackend.centralScene(value(cc: 0x26, index: 1, .byte(3))) == nil)
    }
}
