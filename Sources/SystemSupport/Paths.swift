/// File-system paths as strings, the way `NSString`'s path methods treat them (FoundationEssentials has none).
public enum Path {
    /// `directory` and `component` joined by exactly one slash.
    public static func join(_ directory: String, _ component: String) -> String {
        guard !directory.isEmpty else { return component }
        guard !component.isEmpty else { return directory }
        let head = directory.hasSuffix("/") && directory != "/" ? String(directory.dropLast()) : directory
        let tail = component.hasPrefix("/") ? String(component.dropFirst()) : component
        return head == "/" ? "/" + tail : head + "/" + tail
    }

    /// The path without its last component: `a/b/c` → `a/b`, `c` → ``, `/c` → `/`.
    public static func parent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }
}
