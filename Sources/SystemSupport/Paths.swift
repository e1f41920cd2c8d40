/// File-system paths as strings (FoundationEssentials has no `NSString` path methods). Unlike those, nothing
/// is normalised beyond the slash at the join: `a//b` and a trailing slash of `component` stay as they are.
public enum Path {
    /// `directory` and `component` joined by one slash (one trailing slash of `directory` and one leading slash
    /// of `component` are dropped).
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
