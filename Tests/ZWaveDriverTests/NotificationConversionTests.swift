internal import CZWaveShim
import Testing

@testable import ZWaveDriver

/// The copy from the shim's C notification into typed events (no OpenZWave needed).
@Suite struct NotificationConversionTests {
    func note(_ type: zw_notification_type, node: UInt8 = 2) -> zw_notification {
        var n = zw_notification()
        n.type = Int32(bitPattern: type.rawValue)
        n.home_id = 0xC0FF_EE01
        n.node_id = node
        return n
    }

    func setText<T>(_ field: inout T, _ text: String) {
        withUnsafeMutableBytes(of: &field) { raw in
            let bytes = Array(text.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes + [0])
        }
    }

    @Test("dead, alive and timeout codes become node events; transaction codes are dropped")
    func notificationCodes() {
        var n = note(ZW_NOTE_NOTIFICATION, node: 3)
        n.notification_code = UInt8(ZW_CODE_DEAD.rawValue)
        #expect(ZWaveEvent(n) == .nodeDead(NodeID(3)))
        n.notification_code = UInt8(ZW_CODE_ALIVE.rawValue)
        #expect(ZWaveEvent(n) == .nodeAlive(NodeID(3)))
        n.notification_code = UInt8(ZW_CODE_TIMEOUT.rawValue)
        #expect(ZWaveEvent(n) == .nodeTimeout(NodeID(3)))
        n.notification_code = UInt8(ZW_CODE_MSG_COMPLETE.rawValue)
        #expect(ZWaveEvent(n) == nil)
    }

    @Test("driver ready, scene, node event, controller command, all nodes queried")
    func lifecycle() {
        #expect(
            ZWaveEvent(note(ZW_NOTE_DRIVER_READY, node: 1))
                == .driverReady(home: HomeID(0xC0FF_EE01), controller: NodeID(1)))
        var scene = note(ZW_NOTE_SCENE_EVENT)
        scene.scene_id = 26
        #expect(ZWaveEvent(scene) == .sceneEvent(NodeID(2), sceneID: 26))
        var basic = note(ZW_NOTE_NODE_EVENT)
        basic.event = 0xFF
        #expect(ZWaveEvent(basic) == .nodeEvent(NodeID(2), value: 0xFF))
        var command = note(ZW_NOTE_CONTROLLER_COMMAND, node: 10)
        command.command = 1
        command.event = 7
        #expect(
            ZWaveEvent(command)
                == .controllerCommand(
                    ZWaveControllerUpdate(command: 1, state: .completed, error: .none, node: NodeID(10))))
        #expect(ZWaveEvent(note(ZW_NOTE_ALL_NODES_QUERIED_SOME_DEAD)) == .allNodesQueried(someDead: true))
        #expect(ZWaveEvent(note(ZW_NOTE_POLLING_ENABLED)) == nil)
    }

    @Test("a value change carries the value id and the pre-read value, label, units and precision")
    func valueChanged() throws {
        var n = note(ZW_NOTE_VALUE_CHANGED, node: 3)
        n.value_id = zw_value_id(
            home_id: 0xC0FF_EE01, id: 0x1234, node_id: 3, genre: 1, command_class: 0x32,
            instance: 4, index: 2, type: UInt8(ZW_VALUE_DECIMAL.rawValue))
        n.value.valid = true
        n.value.double_value = 123.4
        n.value.precision = 1
        setText(&n.value.label, "Electric - W")
        setText(&n.value.units, "W")
        setText(&n.value.string_value, "123.4")
        guard case .valueChanged(let value)? = ZWaveEvent(n) else {
            Issue.record("not a valueChanged: \(String(describing: ZWaveEvent(n)))")
            return
        }
        #expect(value.id.key == ZWaveValueKey(node: NodeID(3), commandClass: 0x32, instance: 4, index: 2))
        #expect(value.id.type == .decimal)
        #expect(value.id.genre == .user)
        #expect(value.id.id == 0x1234)
        #expect(value.content == .decimal(123.4, precision: 1))
        #expect(value.label == "Electric - W")
        #expect(value.units == "W")

        n.value.valid = false
        guard case .valueChanged(let unreadable)? = ZWaveEvent(n) else {
            Issue.record("an unreadable value is not a valueChanged: \(String(describing: ZWaveEvent(n)))")
            return
        }
        #expect(unreadable.content == .unavailable)
    }
}
