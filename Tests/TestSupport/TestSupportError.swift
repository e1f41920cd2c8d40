/// A failure of a test-support helper (missing tool, process that would not start, timeout...), with a
/// message that says what to do.
public struct TestSupportError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
