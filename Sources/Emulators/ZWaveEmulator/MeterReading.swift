/// Encodes Meter CC (0x32) reports the way OpenZWave 1.6 decodes them.
public enum MeterReading {
    /// `32 02 <rate 01 | electric> <precision | scale | size 4> <value BE> 00 00` (v2/v3, delta time 0, so no
    /// previous value). The value is rounded to the scale's precision.
    public static func report(_ value: Double, scale: MeterScale) -> [UInt8] {
        var factor = 1.0
        for _ in 0..<scale.precision { factor *= 10 }
        let scaled = (value * factor).rounded()
        let bounded = scaled.isFinite ? min(max(scaled, Double(Int32.min)), Double(Int32.max)) : 0
        let raw = Int32(bounded)
        let word = UInt32(bitPattern: raw)
        let b2 = (scale.precision << 5) | ((scale.rawValue & 0x03) << 3) | 0x04
        return [
            0x32, 0x02, 0x21, b2,
            UInt8(truncatingIfNeeded: word >> 24), UInt8(truncatingIfNeeded: word >> 16),
            UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word),
            0x00, 0x00,
        ]
    }

    /// `32 04 <reset | electric> <scale mask: kWh, W>`.
    static let supportedReport: [UInt8] = [0x32, 0x04, 0x81, 0x05]

    /// The scale a Meter Get asks for (`32 01 <scale << 3>`; absent = kWh).
    static func requestedScale(_ command: [UInt8]) -> MeterScale {
        guard command.count >= 3 else { return .kilowattHours }
        return MeterScale(rawValue: (command[2] >> 3) & 0x07) ?? .watts
    }

    /// Answers the Meter commands of an electric meter reading `watts` and `kilowattHours`: the reply (Get,
    /// Supported Get) and whether the command was a Reset.
    static func answer(_ c: [UInt8], watts: Double, kilowattHours: Double) -> (reply: [UInt8]?, reset: Bool) {
        switch c[1] {
        case 0x01:
            let scale = requestedScale(c)
            return (report(scale == .watts ? watts : kilowattHours, scale: scale), false)
        case 0x03:
            return (supportedReport, false)
        case 0x05:
            return (nil, true)
        default:
            return (nil, false)
        }
    }

    /// A load in W made safe for arithmetic: finite, 0…100 kW.
    static func sanitizedWatts(_ watts: Double) -> Double {
        watts.isFinite ? min(max(watts, 0), 100_000) : 0
    }
}

/// Scales of the electric meter the emulated devices report.
public enum MeterScale: UInt8, Sendable {
    case kilowattHours = 0
    case watts = 2

    /// Decimal places used in the report.
    var precision: UInt8 { self == .kilowattHours ? 2 : 1 }
}
