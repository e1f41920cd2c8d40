/// The kinds of emulated node a network description can name.
public enum NodeKind: String, Sendable, CaseIterable, Codable {
    /// Fibaro Dimmer 2 (FGD212).
    case fgd212
    /// Greenwave PowerNode 6.
    case powernode6
    /// A plain plug-in binary switch (Everspring AN157).
    case binarySwitch = "binary_switch"
    /// A node that is not yet included and joins when the controller is in inclusion mode.
    case joining
}
