/// Fibaro Roller Shutter 3 (FGR223, manufacturer 0x010F, type 0x0303, id 0x1000), mains powered: generic type
/// Multilevel Switch with the motor control (class C) specific type, Switch Multilevel v4 (position 0-99, Close/Open,
/// Start/Stop Level Change), Meter v3 (W while the motor runs, kWh). The motor takes `travelTime` emulated seconds
/// from closed to open; the node reports its position (and power) when it stops.
final class RollerShutterNode: EmulatedNode {
    static let travelTime = 10.0

    /// Position 0 (closed) … 99 (open), fractional while moving.
    var position: Double
    var target: Double?
    var motorLoad: Double
    var energy = 0.0

    init(description d: NodeDescription, id: UInt8, included: Bool) {
        position = Double(min(d.level, 99))
        motorLoad = MeterReading.sanitizedWatts(d.loads.first ?? 120)
        super.init(id: id, kind: .fgr223, included: included)
        identify(
            (0x010F, 0x0303, 0x1000), generic: 0x11, specific: 0x07, listening: .always,
            classes: [
                0x5E: 2, 0x86: 2, 0x72: 2, 0x5A: 1, 0x59: 1, 0x85: 2, 0x8E: 3, 0x73: 1, 0x22: 1, 0x26: 4, 0x32: 3,
                0x70: 1, 0x75: 2, 0x7A: 4, 0x20: 1,
            ])
        zwavePlusInfo = [0x01, 0x05, 0x00, 0x1A, 0x00, 0x1A, 0x00]  // always-on slave, window covering icon
        groups = [1: AssociationGroup(max: 1, nodes: [1]), 2: AssociationGroup(max: 5), 3: AssociationGroup(max: 5)]
        groupNames = [1: "Lifeline", 2: "Roller Shutter", 3: "Slats"]
    }

    var level: UInt8 { UInt8(min(max(position.rounded(), 0), 99)) }
    var power: Double { target == nil ? 0 : motorLoad }

    override func level(endpoint: UInt8) -> UInt8? { level }

    /// Switch Multilevel v4 Report: the position, the target (the position when the motor stands) and the duration
    /// (unknown while moving, 0 when it stands).
    var levelReport: [UInt8] {
        [0x26, 0x03, level, target.map { UInt8($0) } ?? level, target == nil ? 0x00 : 0xFE]
    }

    override func handleDevice(_ c: [UInt8], endpoint: UInt8) -> NodeReaction? {
        switch (c[0], c[1]) {
        case (0x26, 0x01) where c.count >= 3, (0x20, 0x01) where c.count >= 3:
            return NodeReaction(unsolicited: move(to: c[2] == 0xFF ? 99 : Double(min(c[2], 99))))
        case (0x26, 0x02), (0x20, 0x02):
            return NodeReaction(replies: [NodeReport(0, c[0] == 0x26 ? levelReport : [0x20, 0x03, level])])
        case (0x26, 0x04) where c.count >= 3:  // Start Level Change: bit 6 down
            return NodeReaction(unsolicited: move(to: c[2] & 0x40 != 0 ? 0 : 99))
        case (0x26, 0x05):  // Stop Level Change
            return NodeReaction(unsolicited: stop())
        case (0x26, 0x06):  // Supported Get: Close/Open, no secondary switch
            return NodeReaction(replies: [NodeReport(0, [0x26, 0x07, 0x03, 0x00])])
        case (0x32, _):
            let (reply, reset) = MeterReading.answer(c, watts: power, kilowattHours: energy)
            if reset { energy = 0 }
            return NodeReaction(replies: reply.map { [NodeReport(0, $0)] } ?? [])
        default:
            return nil
        }
    }

    /// Starts the motor towards `goal` (0-99); reports the power it draws.
    func move(to goal: Double) -> [NodeReport] {
        guard goal != position else { return [NodeReport(0, levelReport)] }
        let wasRunning = target != nil
        target = goal
        return wasRunning ? [] : [NodeReport(0, MeterReading.report(power, scale: .watts))]
    }

    /// Stops the motor where it is: reports the position and that the power fell to 0.
    func stop() -> [NodeReport] {
        guard target != nil else { return [NodeReport(0, levelReport)] }
        target = nil
        return [NodeReport(0, levelReport), NodeReport(0, MeterReading.report(0, scale: .watts))]
    }

    override func tick(seconds: Double) -> [NodeReport] {
        energy += power * seconds / 3_600_000
        guard let goal = target else { return [] }
        let step = 99 / Self.travelTime * seconds
        position = goal > position ? min(goal, position + step) : max(goal, position - step)
        return position == goal ? stop() : []
    }
}
