/// Scales of the electric meter the emulated devices report.
public enum MeterScale: UInt8, Sendable {
    case kilowattHours = 0
    case watts = 2

    /// Decimal places used in the report.
    var precision: UInt8 { self == .kilowattHours ? 2 : 1 }
}
