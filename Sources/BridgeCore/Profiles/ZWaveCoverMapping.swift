/// The generic mapping of Z-Wave roller shutters and blinds (kind ``DeviceKind/cover``), for every product: a node
/// whose device class is a Multilevel Switch (generic type 0x11) of a motor-control specific type is a cover, whose
/// Switch Multilevel level `0`..`99` is its position, and whose Switch Multilevel v4 target value tells where it is
/// heading.
public enum ZWaveCoverMapping {
    /// The Multilevel Switch generic device type.
    public static let multilevelSwitch: UInt8 = 0x11
    /// Its motor-control specific types: 3 multiposition motor, 5, 6 and 7 motor control class A, B and C.
    public static let motorControl: Set<UInt8> = [0x03, 0x05, 0x06, 0x07]
    /// OpenZWave 1.6's index of Switch Multilevel's target value (v4 reports).
    public static let targetValueIndex: UInt16 = 9

    /// Whether a node of device class `generic`/`specific` is a cover: its Switch Multilevel moves a motor.
    public static func isCover(generic: UInt8, specific: UInt8) -> Bool {
        generic == multilevelSwitch && motorControl.contains(specific)
    }

    /// The kind a Switch Multilevel makes of a node of device class `generic`/`specific`.
    public static func multilevelKind(generic: UInt8, specific: UInt8) -> DeviceKind {
        isCover(generic: generic, specific: specific) ? .cover : .dimmer
    }

    /// A Switch Multilevel level as the cover's position in % open: `0`..`98` as they are, `99` (fully open) `100`.
    public static func position(level: Int) -> Int { level >= 99 ? 100 : max(level, 0) }

    /// A position in % open as the level to set: `0`..`98` as they are, `99` and `100` fully open (`99`).
    public static func level(position: Int) -> Int { min(max(position, 0), 99) }

    /// Where a cover is going: `opening` while its target is above its level, `closing` below, `stopped` at it;
    /// `stopped` too for a device that reports no target (Switch Multilevel before v4: the bridge cannot tell it
    /// moves, and its position reports come when it stands); nil while the level is unknown.
    public static func movement(level: Int?, target: Int?) -> String? {
        guard let level else { return nil }
        guard let target else { return "stopped" }
        return target > level ? "opening" : target < level ? "closing" : "stopped"
    }
}
