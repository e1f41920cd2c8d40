import BridgeCore
import Testing

/// Covers by device class, their position in % open and their movement.
@Suite struct ZWaveCoverMappingTests {
    /// A Multilevel Switch of a motor-control specific type is a cover; other Multilevel Switches (a dimmer's
    /// power switch, 0x01) and other generic types are not.
    @Test func aMotorControlMultilevelSwitchIsACover() {
        for specific: UInt8 in [0x03, 0x05, 0x06, 0x07] {
            #expect(ZWaveCoverMapping.multilevelKind(generic: 0x11, specific: specific) == .cover)
        }
        #expect(ZWaveCoverMapping.multilevelKind(generic: 0x11, specific: 0x01) == .dimmer)
        #expect(ZWaveCoverMapping.multilevelKind(generic: 0x10, specific: 0x07) == .dimmer)
        #expect(ZWaveCoverMapping.multilevelKind(generic: 0, specific: 0) == .dimmer)
    }

    /// Z-Wave's 99 (fully open) is 100 %; 100 and 99 % set the level 99; the rest are as they are, both ways.
    @Test func positionsAndLevels() {
        #expect(ZWaveCoverMapping.position(level: 99) == 100)
        #expect(ZWaveCoverMapping.position(level: 0) == 0)
        #expect(ZWaveCoverMapping.position(level: 42) == 42)
        #expect(ZWaveCoverMapping.level(position: 100) == 99)
        #expect(ZWaveCoverMapping.level(position: 99) == 99)
        #expect(ZWaveCoverMapping.level(position: 42) == 42)
        for position in 0...98 {
            #expect(ZWaveCoverMapping.position(level: ZWaveCoverMapping.level(position: position)) == position)
        }
    }

    @Test func movementComparesTheTargetWithTheLevel() {
        #expect(ZWaveCoverMapping.movement(level: 99, target: 0) == "closing")
        #expect(ZWaveCoverMapping.movement(level: 10, target: 99) == "opening")
        #expect(ZWaveCoverMapping.movement(level: 40, target: 40) == "stopped")
        // No target (Switch Multilevel v1-v3): it stands as far as the bridge can tell.
        #expect(ZWaveCoverMapping.movement(level: 40, target: nil) == "stopped")
        #expect(ZWaveCoverMapping.movement(level: nil, target: 40) == nil)
    }
}
