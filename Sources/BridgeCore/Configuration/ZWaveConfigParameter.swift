/// One `parameter = value` line of `[zwave.device.config]`, e.g. `28 = 1` (FGD212: scene activation on).
public struct ZWaveConfigParameter: Sendable, Hashable {
    /// The parameter number, 1-255.
    public var parameter: Int
    /// The value; configuration values are at most 4 bytes, signed.
    public var value: Int32

    public init(parameter: Int, value: Int32) {
        self.parameter = parameter
        self.value = value
    }
}
