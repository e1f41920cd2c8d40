/// Fibaro Door/Window Sensor 2 (FGDW002, manufacturer 0x010F, type 0x0702, id 0x1000), on battery: Notification
/// v5 (access control: door open / closed; home security: tamper), Sensor Multilevel v5 (temperature), Battery,
/// Wake Up v2 (a sleeping node, interval 21600 s).
final class DoorWindowSensorNode: EmulatedNode, MultilevelSensing {
    var open = false
    var readings: [SensorReading]

    init(description d: NodeDescription, id: UInt8, included: Bool) {
        readings = [.celsius(d.temperature ?? 20, precision: 1)]
        super.init(id: id, kind: .fgdw002, included: included)
        identify(
            (0x010F, 0x0702, 0x1000), generic: 0x07, specific: 0x01, listening: .sleeping,
            classes: [
                0x5E: 2, 0x59: 1, 0x80: 1, 0x22: 1, 0x56: 1, 0x7A: 4, 0x73: 1, 0x85: 2, 0x8E: 3, 0x86: 2, 0x72: 2,
                0x5A: 1, 0x84: 2, 0x71: 5, 0x31: 5, 0x70: 1,
            ])
        zwavePlusInfo = [0x01, 0x06, 0x00, 0x0C, 0x07, 0x0C, 0x07]
        groups = [1: AssociationGroup(max: 1, nodes: [1]), 2: AssociationGroup(max: 5), 3: AssociationGroup(max: 5)]
        groupNames = [1: "Lifeline", 2: "Status change", 3: "Alarm"]
        battery = BatteryState(
            level: d.battery ?? 100, wakeUp: WakeUpState(interval: 21600, minimum: 3600, maximum: 64800, step: 3600))
    }

    static let events: [UInt8: [UInt8]] = [
        NotificationEvent.accessControl: [NotificationEvent.doorOpen, NotificationEvent.doorClosed],
        NotificationEvent.homeSecurity: [NotificationEvent.tamper],
    ]

    override func handleDevice(_ c: [UInt8], endpoint: UInt8) -> NodeReaction? {
        let answer: [UInt8]?
        switch c[0] {
        case 0x71:
            let state = [
                NotificationEvent.accessControl: open ? NotificationEvent.doorOpen : NotificationEvent.doorClosed
            ]
            answer = NotificationEvent.answer(c, events: Self.events, state: state)
        case 0x31:
            answer = SensorReading.answer(c, readings: readings)
        default:
            return nil
        }
        return answer.map { NodeReaction(replies: [NodeReport(0, $0)]) }
    }

    /// Basic Get: 0xFF while the door is open.
    override func level(endpoint: UInt8) -> UInt8? { open ? 0xFF : 0x00 }

    /// The door opens or closes: Notification access control, door open / door closed.
    func setOpen(_ isOpen: Bool) -> [NodeReport] {
        open = isOpen
        let event = isOpen ? NotificationEvent.doorOpen : NotificationEvent.doorClosed
        return [NodeReport(0, NotificationEvent.report(type: NotificationEvent.accessControl, event: event))]
    }
}
