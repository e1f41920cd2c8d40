/// A device's power status as CEC reports it (Report Power Status operand, libcec `cec_power_status`).
public enum PowerStatus: Sendable, Hashable, CustomStringConvertible {
    case on
    case standby
    case transitionStandbyToOn
    case transitionOnToStandby
    /// libcec does not know (the device did not answer, or is not known to be present).
    case unknown

    /// From the CEC operand (`0x00`...`0x03`); anything else is `unknown`.
    public init(cecValue: UInt32) {
        switch cecValue {
        case 0x00: self = .on
        case 0x01: self = .standby
        case 0x02: self = .transitionStandbyToOn
        case 0x03: self = .transitionOnToStandby
        default: self = .unknown
        }
    }

    /// `true` for on (and standby→on), `false` for standby (and on→standby), nil when unknown.
    public var isOn: Bool? {
        switch self {
        case .on, .transitionStandbyToOn: true
        case .standby, .transitionOnToStandby: false
        case .unknown: nil
        }
    }

    public var description: String {
        switch self {
        case .on: "on"
        case .standby: "standby"
        case .transitionStandbyToOn: "standby→on"
        case .transitionOnToStandby: "on→standby"
        case .unknown: "unknown"
        }
    }
}
