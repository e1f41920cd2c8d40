/// A wall-switch input of an emulated FGD212.
public enum DimmerButton: String, Sendable, CaseIterable {
    case s1
    case s2
}
