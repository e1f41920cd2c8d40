/// A thermostat's mode, as `<device>/mode` (and the state topic) carries it: `off`, `heat`, and what else the device
/// supports (``ZWaveThermostatMapping`` gives the Z-Wave modes behind each word).
public enum ThermostatMode: String, Sendable, Hashable, CaseIterable {
    case off
    case heat
    case cool
    case auto
    /// Energy-save heating: the device heats to its own, lower energy-save setpoint.
    case eco
    /// Full power: the valve fully open for a while, then back to the mode before.
    case boost
    case away
    /// The manufacturer's own mode (a Eurotronic Spirit: the valve set directly).
    case manufacturerSpecific = "manufacturer_specific"

    /// Whether the device heats in this mode (HomeKit's and Home Assistant's `heat`).
    public var heats: Bool { self != .off && self != .cool }
}

/// What a thermostat offers, as its interview told: its heating setpoint's range, unit and precision, the modes it
/// supports and whether it reports its operating state. The inventory lists it; Home Assistant, HomeKit and the
/// dashboard take their limits from it.
public struct ThermostatTraits: Sendable, Hashable {
    /// The setpoint's range as the device reported it (Thermostat Setpoint v3 capabilities) or as its product's
    /// configuration declares it; nil while unknown (``range`` falls back to ``defaultRange``).
    public var minimum: Double?
    public var maximum: Double?
    /// `°C` or `°F` as the setpoint's reports say; nil before the first (``temperatureUnit``: °C).
    public var unit: String?
    /// Decimals the device reports its setpoint with (`20.0`: 1), nil while unknown.
    public var precision: Int?
    /// The modes the device supports, in ``ThermostatMode`` order.
    public var modes: [ThermostatMode]
    /// Whether the device reports what it is doing (`<device>/operating_state`).
    public var operatingState: Bool

    public init(
        minimum: Double? = nil, maximum: Double? = nil, unit: String? = nil, precision: Int? = nil,
        modes: [ThermostatMode] = [], operatingState: Bool = false
    ) {
        self.minimum = minimum
        self.maximum = maximum
        self.unit = unit
        self.precision = precision
        self.modes = modes
        self.operatingState = operatingState
    }

    /// The range a thermostat that declares none takes: 5-30 °C (41-86 °F).
    public static func defaultRange(unit: String) -> ClosedRange<Double> { unit == "°F" ? 41...86 : 5...30 }

    /// The setpoint's unit, `°C` until the device says otherwise.
    public var temperatureUnit: String { unit ?? "°C" }

    /// The setpoints accepted: the device's range, else ``defaultRange(unit:)``.
    public var range: ClosedRange<Double> {
        let fallback = Self.defaultRange(unit: temperatureUnit)
        let low = minimum ?? fallback.lowerBound
        let high = maximum ?? fallback.upperBound
        return low <= high ? low...high : fallback
    }

    /// The step front ends offer: 0.5 for a device that reports decimals, else 1.
    public var step: Double { (precision ?? 1) > 0 ? 0.5 : 1 }

    /// The modes, `off` and `heat` first when the device supports them (a device that reported none: both).
    public var offeredModes: [ThermostatMode] { modes.isEmpty ? [.off, .heat] : modes }

    /// These traits with what `other` tells added (a known value replaced by a newer one; modes merged).
    public func merging(_ other: ThermostatTraits) -> ThermostatTraits {
        ThermostatTraits(
            minimum: other.minimum ?? minimum, maximum: other.maximum ?? maximum,
            unit: other.unit ?? unit, precision: other.precision ?? precision,
            modes: ThermostatMode.allCases.filter { modes.contains($0) || other.modes.contains($0) },
            operatingState: operatingState || other.operatingState)
    }
}
