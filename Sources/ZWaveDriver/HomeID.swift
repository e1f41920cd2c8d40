/// A Z-Wave network's home id (the controller's 32-bit id).
public struct HomeID: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }

    /// `0xC0FFEE01`-style, as OpenZWave names its cache file (`ozwcache_0xc0ffee01.xml`).
    public var description: String {
        let hex = String(rawValue, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - hex.count)) + hex
    }
}
