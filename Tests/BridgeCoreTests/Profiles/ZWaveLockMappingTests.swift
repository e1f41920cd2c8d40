import BridgeCore
import Testing

/// Door locks: the state from Door Lock's "Locked" value and access control's "lock jammed", and HomeKit's numbers.
@Suite struct ZWaveLockMappingTests {
    @Test func doorLockAndTheJammedNotificationAreTheLockState() {
        #expect(ZWaveLockMapping.state(commandClass: 0x62, index: 0, reading: .bool(true)) == .locked)
        #expect(ZWaveLockMapping.state(commandClass: 0x62, index: 0, reading: .bool(false)) == .unlocked)
        #expect(ZWaveLockMapping.state(commandClass: 0x71, index: 6, reading: .listItem(11)) == .jammed)
        // Door Lock's mode list (index 1), other access control events (manual lock 1, door open 22, clear 0),
        // another notification type's event 11, and an unread value are no state.
        #expect(ZWaveLockMapping.state(commandClass: 0x62, index: 1, reading: .listItem(6)) == nil)
        for event in [0, 1, 22] {
            #expect(ZWaveLockMapping.state(commandClass: 0x71, index: 6, reading: .listItem(event)) == nil)
        }
        #expect(ZWaveLockMapping.state(commandClass: 0x71, index: 7, reading: .listItem(11)) == nil)
        #expect(ZWaveLockMapping.state(commandClass: 0x62, index: 0, reading: nil) == nil)
        // The jam is a lock's, not a door sensor's contact.
        #expect(
            ZWaveSensorMapping.sensors(
                of: .init(commandClass: 0x71, index: 6, label: "", units: "", reading: nil),
                listItems: [1, 2, 3, 4, 11]
            ).isEmpty)
    }

    @Test func homeKitsLockCurrentState() {
        #expect(ZWaveLockMapping.homeKitCurrentState(.unlocked) == 0)
        #expect(ZWaveLockMapping.homeKitCurrentState(.locked) == 1)
        #expect(ZWaveLockMapping.homeKitCurrentState(.jammed) == 2)
        #expect(ZWaveLockMapping.homeKitCurrentState(nil) == 3)
    }
}
