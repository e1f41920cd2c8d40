import BridgeCore
import Testing

@testable import HomeKitBridge

/// Which FGD212 buttons become programmable switches: both when devices.toml turns the node's scene activation on,
/// else those a `[[zwave.scene]]` names; on the device the bridge publishes the node's `/scene` on.
@Suite struct SceneButtonTests {
    static let dimmer = DeviceDescriptor(
        address: DeviceAddress(room: "hall", name: "light"), kind: .dimmer, source: .zwave(node: 5, instance: nil))
    static let socket = DeviceDescriptor(
        address: DeviceAddress(room: "hall", name: "socket"), kind: .socket, source: .zwave(node: 6, instance: 1))
    static let devices = [dimmer, socket]

    @Test func sceneActivationOnGivesBothButtonsWithoutAScene() {
        #expect(AccessoryLayout.buttons(of: Self.dimmer, scenes: [], devices: Self.devices, sceneNodes: [5]) == [1, 2])
        #expect(AccessoryLayout.buttons(of: Self.dimmer, scenes: [], devices: Self.devices, sceneNodes: []) == [])
        // Another node's scene activation gives this one nothing.
        #expect(AccessoryLayout.buttons(of: Self.socket, scenes: [], devices: Self.devices, sceneNodes: [5]) == [])
    }

    @Test func aNamedSceneGivesItsButtonOnly() {
        let scenes = [ZWaveSceneConfig(node: 5, scene: 26, topic: "Thuis/scene/movie", payload: "on")]
        #expect(AccessoryLayout.buttons(of: Self.dimmer, scenes: scenes, devices: Self.devices) == [2])
        // A scene id that is no press HomeKit knows (a triple click, 15) gives no button.
        let triple = [ZWaveSceneConfig(node: 5, scene: 15, topic: "Thuis/scene/x", payload: "on")]
        #expect(AccessoryLayout.buttons(of: Self.dimmer, scenes: triple, devices: Self.devices) == [])
    }
}
