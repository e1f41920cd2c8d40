/// Aeotec MultiSensor 6 (ZW100, manufacturer 0x0086, type 0x0002, id 0x0064), on battery: Sensor Multilevel v7
/// (temperature °C, relative humidity %, luminance lux, ultraviolet index), Notification v4 (home security:
/// motion, tamper), Sensor Binary v2 (motion), Battery, Wake Up v2 (a sleeping node, interval 3600 s). Motion is
/// always a Notification Report; with parameter 5 at 2 (OpenZWave's "Binary Sensor Report", its ideal value; the
/// factory default 1 is a Basic Set to the association groups, not emulated) also a Sensor Binary Report.
final class MultiSensor6Node: EmulatedNode, MultilevelSensing {
    var readings: [SensorReading]
    var motion = false

    init(description d: NodeDescription, id: UInt8, included: Bool) {
        readings = [
            .celsius(d.temperature ?? 21.5, precision: 1),
            SensorReading(type: SensorReading.humidity, scale: 0, precision: 0, value: 45),
            SensorReading(type: SensorReading.luminance, scale: 1, precision: 0, value: 120),
            SensorReading(type: SensorReading.ultraviolet, scale: 0, precision: 0, value: 1),
        ]
        super.init(id: id, kind: .multisensor6, included: included)
        identify(
            (0x0086, 0x0002, 0x0064), generic: 0x21, specific: 0x01, listening: .sleeping,
            classes: [
                0x5E: 2, 0x86: 2, 0x72: 2, 0x5A: 1, 0x59: 1, 0x85: 2, 0x73: 1, 0x84: 2, 0x80: 1, 0x71: 4, 0x30: 2,
                0x31: 7, 0x70: 1, 0x7A: 2,
            ])
        zwavePlusInfo = [0x01, 0x06, 0x00, 0x0C, 0x07, 0x0C, 0x07]  // sleeping reporting slave, sensor icon
        groups = [1: AssociationGroup(max: 5, nodes: [1])]
        groupNames = [1: "LifeLine"]
        defaultConfig = [5: ConfigValue(size: 1, value: 1), 3: ConfigValue(size: 2, value: 240)]
        config = defaultConfig
        battery = BatteryState(
            level: d.battery ?? 100, wakeUp: WakeUpState(interval: 3600, minimum: 240, maximum: 2_678_400, step: 240))
    }

    override func handleDevice(_ c: [UInt8], endpoint: UInt8) -> NodeReaction? {
        switch (c[0], c[1]) {
        case (0x31, _):
            return SensorReading.answer(c, readings: readings).map(reply)
        case (0x30, 0x01):  // Sensor Binary Supported Get: motion (type 0x0C)
            return reply([0x30, 0x04] + NotificationEvent.bitmask([Self.motionSensor]))
        case (0x30, 0x02):
            return reply(sensorBinaryReport)
        case (0x71, _):
            let state = [NotificationEvent.homeSecurity: motion ? NotificationEvent.motion : NotificationEvent.idle]
            return NotificationEvent.answer(c, events: Self.events, state: state).map(reply)
        default:
            return nil
        }
    }

    static let events: [UInt8: [UInt8]] = [
        NotificationEvent.homeSecurity: [NotificationEvent.tamper, NotificationEvent.motion]
    ]

    private func reply(_ command: [UInt8]) -> NodeReaction { NodeReaction(replies: [NodeReport(0, command)]) }

    /// Sensor Binary v2 sensor type "motion".
    static let motionSensor: UInt8 = 0x0C

    /// `30 03 <FF detected | 00 idle> <type motion>`.
    var sensorBinaryReport: [UInt8] { [0x30, 0x03, motion ? 0xFF : 0x00, Self.motionSensor] }

    /// Motion starts (Notification home security, motion detected) or ends (idle, with the cleared event).
    func setMotion(_ on: Bool) -> [NodeReport] {
        motion = on
        let report =
            on
            ? NotificationEvent.report(type: NotificationEvent.homeSecurity, event: NotificationEvent.motion)
            : NotificationEvent.report(
                type: NotificationEvent.homeSecurity, event: NotificationEvent.idle,
                parameters: [NotificationEvent.motion])
        let binary = configValue(5) == 2 ? [NodeReport(0, sensorBinaryReport)] : []
        return [NodeReport(0, report)] + binary
    }
}
