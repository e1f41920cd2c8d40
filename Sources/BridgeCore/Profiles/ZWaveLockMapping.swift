/// The generic mapping of Z-Wave door locks (kind ``DeviceKind/lock``), for every product: a node with the Door
/// Lock command class is a lock, whose OpenZWave 1.6 value "Locked" (index 0, a bool: true only for mode secured,
/// 0xFF) is its state, and whose Notification access control "Lock jammed" (event 11) makes it `jammed` until its
/// next Door Lock report.
///
/// OpenZWave 1.6 keeps no door condition (door open/closed, bolt, latch) from the Door Lock report, and folds the
/// spec's mode "unknown" (0xFE) into its "Invalid" mode together with the handle modes, so the bridge tells neither.
public enum ZWaveLockMapping {
    /// The Door Lock command class.
    public static let doorLock: UInt8 = 0x62
    /// OpenZWave 1.6's index of Door Lock's "Locked" value (`ValueID_Index_DoorLock::Lock`).
    public static let lockedIndex: UInt16 = 0
    /// Notification type access control (OpenZWave's index of its value).
    public static let accessControl: UInt16 = 6
    /// Access control's event "Lock jammed".
    public static let lockJammed = 11

    /// The lock state a value stands for: Door Lock's "Locked" (locked or unlocked), or a Notification access
    /// control "Lock jammed"; nil for any other value.
    public static func state(commandClass: UInt8, index: UInt16, reading: ZWaveSensorMapping.Reading?) -> LockState? {
        switch (commandClass, index, reading) {
        case (doorLock, lockedIndex, .bool(let locked)?): locked ? .locked : .unlocked
        case (ZWaveSensorMapping.notification, accessControl, .listItem(lockJammed)?): .jammed
        default: nil
        }
    }

    /// A lock state as HomeKit's Lock Current State: 0 unsecured, 1 secured, 2 jammed, 3 unknown (nil: no report).
    public static func homeKitCurrentState(_ state: LockState?) -> Int {
        switch state {
        case .unlocked: 0
        case .locked: 1
        case .jammed: 2
        case nil: 3
        }
    }
}
