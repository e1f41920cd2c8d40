/// Eurotronic Spirit Z-Wave Plus (manufacturer 0x0148, type 0x0003, id 0x0001), a radiator thermostat on
/// batteries that is FLiRS (frequently listening, 1000 ms): it has no Wake Up CC and hears every frame. Thermostat
/// Mode v3 (Off, Heat, Heat Eco, Full Power, Manufacturer Specific), Thermostat Setpoint v3 (Heating and Energy
/// Save Heating, °C, 8-28), Sensor Multilevel v5 (temperature), Switch Multilevel (valve opening), Battery.
final class RadiatorThermostatNode: EmulatedNode, MultilevelSensing {
    static let modes: [UInt8] = [0x00, 0x01, 0x0B, 0x0F, 0x1F]
    /// Setpoint types: 1 heating, 11 energy save heating.
    var setpoints: [UInt8: Double]
    var mode: UInt8 = 0x01
    var valve: UInt8 = 0
    var readings: [SensorReading]

    init(description d: NodeDescription, id: UInt8, included: Bool) {
        setpoints = [0x01: d.setpoint ?? 20, 0x0B: 16]
        readings = [.celsius(d.temperature ?? 19.5, precision: 2)]
        super.init(id: id, kind: .spirit, included: included)
        identify(
            (0x0148, 0x0003, 0x0001), generic: 0x08, specific: 0x06, listening: .frequent,
            classes: [
                0x5E: 2, 0x86: 2, 0x72: 2, 0x5A: 1, 0x59: 1, 0x85: 2, 0x73: 1, 0x80: 1, 0x31: 5, 0x26: 1, 0x40: 3,
                0x43: 3, 0x70: 1, 0x75: 1, 0x7A: 4, 0x22: 1,
            ])
        zwavePlusInfo = [0x01, 0x07, 0x00, 0x12, 0x00, 0x12, 0x00]  // sleeping listening slave, thermostat icon
        groups = [1: AssociationGroup(max: 1, nodes: [1])]
        battery = BatteryState(level: d.battery ?? 100)
    }

    override func handleDevice(_ c: [UInt8], endpoint: UInt8) -> NodeReaction? {
        switch (c[0], c[1]) {
        case (0x40, 0x01) where c.count >= 3:  // Mode Set
            guard Self.modes.contains(c[2] & 0x1F) else { return NodeReaction() }
            mode = c[2] & 0x1F
            return NodeReaction(unsolicited: [NodeReport(0, [0x40, 0x03, mode])])
        case (0x40, 0x02):
            return reply([0x40, 0x03, mode])
        case (0x40, 0x04):
            return reply([0x40, 0x05] + NotificationEvent.bitmask(Self.modes))
        case (0x43, 0x01) where c.count >= 4:  // Setpoint Set: type, precision | scale | size, value
            guard setpoints[c[2] & 0x0F] != nil, let value = Self.decodeScaled(Array(c[3...])) else {
                return NodeReaction()
            }
            setpoints[c[2] & 0x0F] = min(max(value, 8), 28)
            return NodeReaction(unsolicited: setpointReport(c[2] & 0x0F).map { [NodeReport(0, $0)] } ?? [])
        case (0x43, 0x02) where c.count >= 3:
            return setpointReport(c[2] & 0x0F).map(reply) ?? NodeReaction()
        case (0x43, 0x04):  // Supported Get: heating (bit 1), energy save heating (type 11 is bit 7)
            return reply([0x43, 0x05, 0x82])
        case (0x43, 0x09) where c.count >= 3:  // Capabilities Get: 8.0 … 28.0 °C
            return reply([0x43, 0x0A, c[2] & 0x0F, 0x22, 0x00, 80, 0x22, 0x01, 0x18])
        case (0x31, _):
            return SensorReading.answer(c, readings: readings).map(reply)
        case (0x26, 0x01) where c.count >= 3:
            valve = min(c[2], 99)
            return NodeReaction(unsolicited: [NodeReport(0, [0x26, 0x03, valve])])
        case (0x26, 0x02):
            return reply([0x26, 0x03, valve])
        default:
            return nil
        }
    }

    private func reply(_ command: [UInt8]) -> NodeReaction { NodeReaction(replies: [NodeReport(0, command)]) }

    /// `43 03 <type> <precision 1 | °C | size 2> <value>`.
    func setpointReport(_ type: UInt8) -> [UInt8]? {
        setpoints[type].map {
            [0x43, 0x03, type] + Array(SensorReading(type: 0, scale: 0, precision: 1, value: $0).report.dropFirst(3))
        }
    }

    /// A value with its precision | scale | size byte first, as Setpoint and Sensor Multilevel carry them.
    static func decodeScaled(_ bytes: [UInt8]) -> Double? {
        guard let pss = bytes.first else { return nil }
        let size = Int(pss & 0x07)
        guard [1, 2, 4].contains(size), bytes.count > size else { return nil }
        var raw: Int64 = bytes[1] & 0x80 != 0 ? -1 : 0
        for b in bytes[1...size] { raw = (raw << 8) | Int64(b) }
        var value = Double(raw)
        for _ in 0..<(pss >> 5) { value /= 10 }
        return value
    }
}
