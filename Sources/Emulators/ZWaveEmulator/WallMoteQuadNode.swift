/// Aeotec WallMote Quad (ZW130, manufacturer 0x0086, type 0x0002, id 0x0082), on battery: Central Scene v2 with 4
/// scenes (one per button), each with the key attributes pressed 1x, released, held down and pressed 2x…5x, a
/// sequence number per notification; Battery; Wake Up v2 (a sleeping node; no timed wake-ups by default).
final class WallMoteQuadNode: EmulatedNode {
    static let buttons: UInt8 = 4
    var sequence: UInt8 = 0
    /// The last Central Scene Notification sent, for a retransmission.
    var lastNotification: [UInt8]?

    init(description d: NodeDescription, id: UInt8, included: Bool) {
        super.init(id: id, kind: .wallmoteQuad, included: included)
        identify(
            (0x0086, 0x0002, 0x0082), generic: 0x18, specific: 0x01, listening: .sleeping,
            classes: [
                0x5E: 2, 0x85: 2, 0x59: 1, 0x8E: 2, 0x86: 2, 0x72: 2, 0x5A: 1, 0x73: 1, 0x80: 1, 0x84: 2, 0x70: 1,
                0x5B: 2, 0x7A: 2,
            ])
        zwavePlusInfo = [0x01, 0x06, 0x00, 0x16, 0x00, 0x16, 0x00]  // sleeping reporting slave, wall controller icon
        groups = [1: AssociationGroup(max: 1, nodes: [1])]
        for g in 2...9 { groups[UInt8(g)] = AssociationGroup(max: 5) }
        groupNames = [1: "Lifeline"]
        battery = BatteryState(
            level: d.battery ?? 100, wakeUp: WakeUpState(interval: 0, minimum: 0, maximum: 16_777_200, step: 240))
    }

    override func handleDevice(_ c: [UInt8], endpoint: UInt8) -> NodeReaction? {
        switch (c[0], c[1]) {
        case (0x5B, 0x01):  // Supported Get: 4 scenes, identical, 1 byte of key attributes (0-6)
            return NodeReaction(replies: [NodeReport(0, [0x5B, 0x02, Self.buttons, 0x03, 0x7F])])
        default:
            return nil
        }
    }

    /// A button (1-4) is used: a Central Scene Notification with the next sequence number; nil for another button.
    func press(button: UInt8, _ action: SceneAction) -> [NodeReport]? {
        guard (1...Self.buttons).contains(button) else { return nil }
        sequence &+= 1
        let notification: [UInt8] = [0x5B, 0x03, sequence, action.keyAttribute, button]
        lastNotification = notification
        return [NodeReport(0, notification)]
    }

    /// The last notification again, with its sequence number (a retransmission the controller must drop, as a
    /// frame whose acknowledgement got lost is sent again); nil before any.
    func repeatLast() -> [NodeReport]? {
        lastNotification.map { [NodeReport(0, $0)] }
    }
}

/// What a Central Scene button did: pressed 1-5 times, held down, or released after holding.
public enum SceneAction: Equatable, Sendable {
    case pressed(UInt8)
    case held
    case released

    /// Central Scene key attribute: 0 pressed 1x, 1 released, 2 held down, 3-6 pressed 2x-5x.
    var keyAttribute: UInt8 {
        switch self {
        case .pressed(let n): n <= 1 ? 0x00 : min(n, 5) + 1
        case .held: 0x02
        case .released: 0x01
        }
    }

    /// `1x`…`5x` (or `1`…`5`), `held`/`hold`, `released`/`release`.
    public init?(word: String) {
        switch word.lowercased() {
        case "held", "hold": self = .held
        case "released", "release": self = .released
        default:
            let digits = word.lowercased().hasSuffix("x") ? String(word.dropLast()) : word
            guard let n = UInt8(digits), (1...5).contains(n) else { return nil }
            self = .pressed(n)
        }
    }
}
