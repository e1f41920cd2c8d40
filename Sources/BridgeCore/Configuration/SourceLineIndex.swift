/// Finds the line of a key path in TOML source text by a simple line scan, because TOMLKit does not expose
/// source positions of parsed values.
///
/// Understands `[table]`, `[[array.of.tables]]` (element indices counted per path), `key = value` and dotted or
/// quoted keys on one line. It does not follow inline tables or multi-line values; lookups for paths it did not
/// see fall back to the nearest enclosing table or key it saw, or `nil`.
struct SourceLineIndex {
    private var lines: [String: Int] = [:]

    init(text: String) {
        var current = ""
        var arrayCounts: [String: Int] = [:]
        var inMultilineString = false
        // TOML's lines end at LF or CRLF (one Swift character); a form feed, a lone CR or a Unicode line separator,
        // which Swift's `isNewline` also counts, is not a line break there.
        let allLines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (offset, rawLine) in allLines.enumerated() {
            let lineNumber = offset + 1
            let line = Self.trimmed(rawLine)
            let wasInMultilineString = inMultilineString
            if Self.tripleQuotes(in: line) % 2 == 1 { inMultilineString.toggle() }
            if wasInMultilineString || line.isEmpty || line.hasPrefix("#") { continue }

            if line.hasPrefix("[[") {
                guard let close = line.firstRange(of: "]]") else { continue }
                let keys = Self.keys(line[line.index(line.startIndex, offsetBy: 2)..<close.lowerBound])
                guard let last = keys.last else { continue }
                let parent = Self.resolve(keys.dropLast(), arrayCounts: arrayCounts)
                let table = ConfigurationKeyPath.appending(last, to: parent)
                let count = (arrayCounts[table] ?? 0) + 1
                arrayCounts[table] = count
                current = ConfigurationKeyPath.element(count - 1, of: table)
                record(current, lineNumber)
            } else if line.hasPrefix("[") {
                guard let close = line.firstIndex(of: "]") else { continue }
                let keys = Self.keys(line[line.index(after: line.startIndex)..<close])
                guard !keys.isEmpty else { continue }
                current = Self.resolve(keys, arrayCounts: arrayCounts)
                record(current, lineNumber)
            } else if let equals = Self.assignment(in: line) {
                var path = current
                for key in Self.keys(line[line.startIndex..<equals]) {
                    path = ConfigurationKeyPath.appending(key, to: path)
                    record(path, lineNumber)
                }
            }
        }
    }

    /// The line of `keyPath`, or of the nearest enclosing table or key seen in the text.
    func line(of keyPath: String) -> Int? {
        var path = Substring(keyPath)
        while !path.isEmpty {
            if let line = lines[String(path)] { return line }
            guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { return nil }
            path = path[..<cut]
        }
        return nil
    }

    private mutating func record(_ path: String, _ line: Int) {
        if lines[path] == nil { lines[path] = line }
    }

    /// `a.b.c` with array-of-tables levels resolved to their latest element: `zwave.device[2].config`.
    private static func resolve(_ keys: some Sequence<String>, arrayCounts: [String: Int]) -> String {
        var path = ""
        for key in keys {
            path = ConfigurationKeyPath.appending(key, to: path)
            if let count = arrayCounts[path] { path = ConfigurationKeyPath.element(count - 1, of: path) }
        }
        return path
    }

    /// The `=` of a `key = value` line, outside quotes.
    private static func assignment(in line: Substring) -> String.Index? {
        var quote: Character?
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "=" {
                return index
            }
        }
        return nil
    }

    /// Splits a (possibly dotted, possibly quoted) TOML key into its parts, quotes removed; `[]` if malformed.
    private static func keys(_ text: Substring) -> [String] {
        var keys: [String] = []
        var current = ""
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "." {
                keys.append(current)
                current = ""
            } else if !character.isWhitespace {
                current.append(character)
            }
        }
        keys.append(current)
        return keys.contains(where: \.isEmpty) ? [] : keys
    }

    /// How many `"""` or `'''` delimiters a line holds (an odd count opens or closes a multi-line string).
    private static func tripleQuotes(in line: Substring) -> Int {
        var count = 0
        var run = 0
        var last: Character?
        for character in line {
            guard character == "\"" || character == "'" else {
                run = 0
                last = nil
                continue
            }
            run = character == last ? run + 1 : 1
            last = character
            if run == 3 {
                count += 1
                run = 0
                last = nil
            }
        }
        return count
    }

    private static func trimmed(_ line: Substring) -> Substring {
        guard let first = line.firstIndex(where: { !$0.isWhitespace }),
            let last = line.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return line[first...last]
    }
}
