/// Danalock V2 BTZE (manufacturer 0x010E, type 0x0008, id 0x0002), a door lock on batteries that is FLiRS
/// (frequently listening, 1000 ms; no Wake Up CC): Door Lock v2 (Operation Set/Get, Configuration Set/Get), Battery.
/// The real lock is only controllable through S0 security; the emulated one lists Door Lock as a plain (non-secure)
/// command class, which OpenZWave accepts.
final class DoorLockNode: EmulatedNode {
    var locked: Bool
    var operationType: UInt8 = 0x01  // constant operation
    var lockTimeout: (minutes: UInt8, seconds: UInt8) = (0xFE, 0xFE)

    init(description d: NodeDescription, id: UInt8, included: Bool) {
        locked = d.switches.first ?? true
        super.init(id: id, kind: .danalock, included: included)
        identify(
            (0x010E, 0x0008, 0x0002), generic: 0x40, specific: 0x03, listening: .frequent,
            classes: [
                0x5E: 2, 0x72: 2, 0x86: 2, 0x5A: 1, 0x73: 1, 0x80: 1, 0x62: 2, 0x85: 2, 0x59: 1, 0x70: 1, 0x7A: 2,
            ])
        zwavePlusInfo = [0x01, 0x07, 0x00, 0x03, 0x00, 0x03, 0x00]  // sleeping listening slave, door lock icon
        groups = [1: AssociationGroup(max: 1, nodes: [1])]
        batteryLevel = d.battery ?? 100
    }

    override func level(endpoint: UInt8) -> UInt8? { locked ? 0xFF : 0x00 }

    /// `62 03 <mode> <handles> <door condition> <timeout min> <timeout s>`: door closed, latch closed, bolt
    /// locked or not.
    var operationReport: [UInt8] {
        [0x62, 0x03, locked ? 0xFF : 0x00, 0x00, locked ? 0x05 : 0x07, lockTimeout.minutes, lockTimeout.seconds]
    }

    override func handleDevice(_ c: [UInt8], endpoint: UInt8) -> NodeReaction? {
        switch (c[0], c[1]) {
        case (0x62, 0x01) where c.count >= 3:  // Operation Set
            locked = c[2] == 0xFF
            return NodeReaction(unsolicited: [NodeReport(0, operationReport)])
        case (0x62, 0x02):
            return NodeReaction(replies: [NodeReport(0, operationReport)])
        case (0x62, 0x04) where c.count >= 6:  // Configuration Set
            operationType = c[2]
            lockTimeout = (c[4], c[5])
            return NodeReaction()
        case (0x62, 0x05):
            let t = lockTimeout
            return NodeReaction(replies: [NodeReport(0, [0x62, 0x06, operationType, 0x00, t.minutes, t.seconds])])
        default:
            return nil
        }
    }

    /// Locked or unlocked by hand (the knob): the node reports it.
    func setLocked(_ isLocked: Bool) -> [NodeReport] {
        locked = isLocked
        return [NodeReport(0, operationReport)]
    }
}
