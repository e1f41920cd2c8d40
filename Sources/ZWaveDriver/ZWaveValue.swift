/// A snapshot of one value, read in the notification callback (or on request).
public struct ZWaveValue: Sendable, Hashable {
    public let id: ZWaveValueID
    public let label: String
    public let units: String
    public let readOnly: Bool
    public let content: Content

    public init(id: ZWaveValueID, label: String, units: String, readOnly: Bool, content: Content) {
        self.id = id
        self.label = label
        self.units = units
        self.readOnly = readOnly
        self.content = content
    }

    /// The value itself, by OpenZWave type.
    public enum Content: Sendable, Hashable {
        case bool(Bool)
        case byte(UInt8)
        case short(Int16)
        case int(Int32)
        /// A decimal (OpenZWave keeps it as exact text) with its number of decimal places.
        case decimal(Double, precision: UInt8)
        case string(String)
        /// A list selection: the selected item's value and label.
        case list(value: Int32, label: String)
        /// Buttons, bit sets, raw bytes, schedules: OpenZWave's text form.
        case other(String)
        /// The value could not be read (e.g. it was just removed).
        case unavailable
    }
}

/// What to write into a value with `OpenZWave.setValue(_:to:)`; it must fit the value's type.
public enum ZWaveValueInput: Sendable, Hashable {
    case bool(Bool)
    case byte(UInt8)
    case short(Int16)
    case int(Int32)
    case decimal(Double)
    case string(String)
    /// A list item by its value.
    case listValue(Int32)
    /// A list item by its label.
    case listLabel(String)
}

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
