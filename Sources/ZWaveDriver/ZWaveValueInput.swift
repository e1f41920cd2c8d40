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
