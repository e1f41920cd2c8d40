/// Danalock V2 BTZE (manufacturer 0x010E, type 0x0008, id 0x0002), a door lock on batteries that is FLiRS
/// (frequently listening, 1000 ms; no Wake Up CC): Door Lock v2 (Operation Set/Get; Configuration Get answers
/// constant operation without a timeout and Configuration Set is ignored, as the Danalock's manual says: its
/// settings are Configuration CC parameters), User Code v1 (20 codes, all free), Notification v4 (access control:
/// manual and RF lock/unlock, lock jammed), Battery. The real lock is only controllable through S0 security; the
/// emulated one lists Door Lock and User Code as plain (non-secure) command classes, which OpenZWave accepts.
final class DoorLockNode: EmulatedNode {
    static let userCodes: UInt8 = 20
    /// Access control's "lock jammed" event.
    static let lockJammed: UInt8 = 0x0B
    static let events: [UInt8: [UInt8]] = [NotificationEvent.accessControl: [0x01, 0x02, 0x03, 0x04, lockJammed]]
    var locked: Bool
    /// The bolt jammed (``jam()``) and has not moved since.
    var jammed = false

    init(description d: NodeDescription, id: UInt8, included: Bool) {
        locked = d.switches.first ?? true
        super.init(id: id, kind: .danalock, included: included)
        identify(
            (0x010E, 0x0008, 0x0002), generic: 0x40, specific: 0x03, listening: .frequent,
            classes: [
                0x5E: 2, 0x72: 2, 0x86: 2, 0x5A: 1, 0x73: 1, 0x80: 1, 0x62: 2, 0x63: 1, 0x85: 2, 0x59: 1, 0x70: 1,
                0x7A: 2, 0x71: 4,
            ])
        zwavePlusInfo = [0x01, 0x07, 0x00, 0x03, 0x00, 0x03, 0x00]  // sleeping listening slave, door lock icon
        groups = [1: AssociationGroup(max: 1, nodes: [1])]
        battery = BatteryState(level: d.battery ?? 100)
    }

    override func level(endpoint: UInt8) -> UInt8? { locked ? 0xFF : 0x00 }

    /// `62 03 <mode> <handles> <door condition> <timeout min> <timeout s>`: door closed, latch closed, bolt
    /// locked or not.
    var operationReport: [UInt8] {
        [0x62, 0x03, locked ? 0xFF : 0x00, 0x00, locked ? 0x05 : 0x07, 0xFE, 0xFE]
    }

    override func handleDevice(_ c: [UInt8], endpoint: UInt8) -> NodeReaction? {
        switch (c[0], c[1]) {
        case (0x62, 0x01) where c.count >= 3:  // Operation Set: the bolt moves again
            locked = c[2] == 0xFF
            jammed = false
            return NodeReaction(unsolicited: [NodeReport(0, operationReport)])
        case (0x71, _):
            let state = [NotificationEvent.accessControl: jammed ? Self.lockJammed : NotificationEvent.idle]
            return NotificationEvent.answer(c, events: Self.events, state: state).map {
                NodeReaction(replies: [NodeReport(0, $0)])
            }
        case (0x62, 0x02):
            return NodeReaction(replies: [NodeReport(0, operationReport)])
        case (0x62, 0x05):  // Configuration Get: constant operation, no handles, timeout not supported
            return NodeReaction(replies: [NodeReport(0, [0x62, 0x06, 0x01, 0x00, 0xFE, 0xFE])])
        case (0x63, 0x04):  // Users Number Get
            return NodeReaction(replies: [NodeReport(0, [0x63, 0x05, Self.userCodes])])
        case (0x63, 0x02) where c.count >= 3:  // User Code Get: every slot available (code 0)
            guard (1...Self.userCodes).contains(c[2]) else { return NodeReaction() }
            return NodeReaction(replies: [NodeReport(0, [0x63, 0x03, c[2], 0x00, 0x00, 0x00, 0x00, 0x00])])
        default:
            return nil
        }
    }

    /// Locked or unlocked by hand (the knob): the node reports it.
    func setLocked(_ isLocked: Bool) -> [NodeReport] {
        locked = isLocked
        jammed = false
        return [NodeReport(0, operationReport)]
    }

    /// The bolt jams on its way: the node sends Notification access control "lock jammed" (and no Door Lock
    /// report: its mode is what it was).
    func jam() -> [NodeReport] {
        jammed = true
        return [NodeReport(0, NotificationEvent.report(type: NotificationEvent.accessControl, event: Self.lockJammed))]
    }
}
