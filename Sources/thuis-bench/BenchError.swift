/// A benchmark step that could not run (a missing tool, a process that did not start, a timeout).
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
