/// A door lock's state, as its state topic publishes it.
public enum LockState: String, Sendable, Hashable, CaseIterable {
    /// The bolt is thrown (Door Lock mode secured).
    case locked
    /// Any mode but secured (unsecured, a handle unsecured, with or without a timeout).
    case unlocked
    /// The lock reported that its bolt jammed (Notification access control, lock jammed) and has not reported a
    /// state since.
    case jammed
}
