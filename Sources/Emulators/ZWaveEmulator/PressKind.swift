/// How a switch input was operated.
public enum PressKind: String, Sendable, CaseIterable {
    case single
    case double
    case triple
    case hold
    case release
}
