extension ZWaveValue.Content {
    /// The value as an integer with its size in bytes, as a configuration parameter is read and set: a list
    /// selection and a bool count as one byte; `nil` (size 1) for a value that is not a number.
    var integer: (value: Int?, size: UInt8) {
        switch self {
        case .byte(let b): (Int(b), 1)
        case .short(let s): (Int(s), 2)
        case .int(let i): (Int(i), 4)
        case .list(let value, _): (Int(value), 1)
        case .bool(let b): (b ? 1 : 0, 1)
        default: (nil, 1)
        }
    }
}
