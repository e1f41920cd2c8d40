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
