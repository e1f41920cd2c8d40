/// An audio system's volume and mute (the Report Audio Status operand: bit 7 mute, bits 0-6 volume).
public struct AudioStatus: Sendable, Hashable, CustomStringConvertible {
    /// 0-100, nil when the device reports 0x7F ("unknown") or anything above 100.
    public let volume: Int?
    /// Whether audio is muted.
    public let muted: Bool

    public init(volume: Int?, muted: Bool) {
        self.volume = volume
        self.muted = muted
    }

    /// Decodes the operand byte.
    public init(cecByte: UInt8) {
        let level = Int(cecByte & 0x7F)
        self.init(volume: level <= 100 ? level : nil, muted: cecByte & 0x80 != 0)
    }

    public var description: String { "volume \(volume.map(String.init) ?? "?")\(muted ? " muted" : "")" }
}
