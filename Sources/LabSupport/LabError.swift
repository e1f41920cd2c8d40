/// A failure of a lab helper (a missing tool, a process that would not start, a broker that did not come up, a
/// wait that timed out), with a message that says what to do.
public struct LabError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
