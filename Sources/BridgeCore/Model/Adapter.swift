/// The hardware adapters a bridge can drive: the Z-Wave stick and the CEC adapter. Spelled as in the
/// inventory's `adapter` field and in `adapter_lost`/`adapter_recovered` events.
public enum Adapter: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case zwave
    case cec

    public var description: String { rawValue }
}
