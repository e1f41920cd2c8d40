import TOMLKit

/// Reads one TOML table of devices.toml: typed values with their key paths, reporting wrong types, missing
/// required keys and (when the known keys are given) unknown keys to ``ConfigurationDiagnostics``.
struct TableReader {
    let table: TOMLTable
    /// The table's own key path (`""` for the document).
    let path: String
    let diagnostics: ConfigurationDiagnostics

    /// - Parameter known: the keys this table may hold; `nil` when any key is allowed (`config`, `inputs`).
    init(_ table: TOMLTable, path: String, known: [String]?, diagnostics: ConfigurationDiagnostics) {
        self.table = table
        self.path = path
        self.diagnostics = diagnostics
        guard let known else { return }
        for key in table.keys where !known.contains(key) {
            let isTable = table[key]?.type == .table || table[key]?.array?.first?.type == .table
            var message = path.isEmpty && isTable ? "unknown section" : "unknown key"
            if let suggestion = Self.closest(to: key, in: known) {
                message += "; did you mean \"\(suggestion)\"?"
            } else {
                message += " (known: \(known.joined(separator: ", ")))"
            }
            diagnostics.report(keyPath(key), message)
        }
    }

    /// The keys in the table, in TOMLKit's order.
    var keys: [String] { table.keys }

    func keyPath(_ key: String) -> String { ConfigurationKeyPath.appending(key, to: path) }

    func report(_ key: String, _ message: String) { diagnostics.report(keyPath(key), message) }

    /// Reports a problem with the table itself.
    func reportTable(_ message: String) { diagnostics.report(path, message) }

    func contains(_ key: String) -> Bool { table[key] != nil }

    /// The raw value at `key`; reports it missing when `required`.
    func value(_ key: String, required: Bool) -> (any TOMLValueConvertible)? {
        guard let value = table[key] else {
            if required { report(key, "missing (required)") }
            return nil
        }
        return value
    }

    /// A string value; `nil` (reported) when of another type.
    func string(_ key: String, required: Bool = false) -> String? {
        typed(key, required: required, expected: "a string") { $0.string }
    }

    /// A non-empty string value.
    func nonEmptyString(_ key: String, required: Bool = false) -> String? {
        guard let value = string(key, required: required) else { return nil }
        guard !value.isEmpty else {
            report(key, "must not be empty")
            return nil
        }
        return value
    }

    /// An integer value within `range`; `nil` (reported) when of another type or out of range.
    func int(_ key: String, required: Bool = false, in range: ClosedRange<Int>) -> Int? {
        guard let value = typed(key, required: required, expected: "an integer", { $0.int }) else { return nil }
        guard range.contains(value) else {
            report(key, "must be between \(range.lowerBound) and \(range.upperBound) (got \(value))")
            return nil
        }
        return value
    }

    func bool(_ key: String, required: Bool = false) -> Bool? {
        typed(key, required: required, expected: "true or false") { $0.bool }
    }

    /// A string that must be one topic level, `[A-Za-z0-9_-]+` (room, name, bridge name).
    func level(_ key: String, required: Bool = false) -> String? {
        guard let value = string(key, required: required) else { return nil }
        guard TopicScheme.isValidLevel(value) else {
            report(key, "must match [A-Za-z0-9_-]+ (got \(Self.quoted(value)))")
            return nil
        }
        guard value.utf8.count <= TopicScheme.maximumLevelLength else {
            report(key, "must be at most \(TopicScheme.maximumLevelLength) characters (got \(value.utf8.count))")
            return nil
        }
        return value
    }

    /// A string that must be one of `choices`.
    func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, _: Choice.Type) -> Choice?
    where Choice.RawValue == String {
        guard let value = string(key) else { return nil }
        guard let choice = Choice(rawValue: value) else {
            let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            report(key, "must be one of \(names) (got \(Self.quoted(value)))")
            return nil
        }
        return choice
    }

    /// A sub-table (`[a.b]` or an inline table).
    func table(_ key: String, known: [String]?) -> TableReader? {
        guard let table = typed(key, required: false, expected: "a table", { $0.table }) else { return nil }
        return TableReader(table, path: keyPath(key), known: known, diagnostics: diagnostics)
    }

    /// The elements of an array of tables (`[[a.b]]`); elements that are not tables are reported and skipped.
    func arrayOfTables(_ key: String, known: [String]) -> [(index: Int, reader: TableReader)] {
        guard let value = table[key] else { return [] }
        guard let array = value.array else {
            report(key, "must be an array of tables, written [[\(keyPath(key))]] (got \(Self.describe(value)))")
            return []
        }
        var elements: [(index: Int, reader: TableReader)] = []
        for index in 0..<array.count {
            let elementPath = ConfigurationKeyPath.element(index, of: keyPath(key))
            guard let element = array[index].table else {
                diagnostics.report(elementPath, "must be a table (got \(Self.describe(array[index])))")
                continue
            }
            elements.append((index, TableReader(element, path: elementPath, known: known, diagnostics: diagnostics)))
        }
        return elements
    }

    private func typed<T>(
        _ key: String, required: Bool, expected: String,
        _ extract: (any TOMLValueConvertible) -> T?
    ) -> T? {
        guard let value = value(key, required: required) else { return nil }
        guard let typed = extract(value) else {
            report(key, "must be \(expected) (got \(Self.describe(value)))")
            return nil
        }
        return typed
    }

    // MARK: Messages

    /// `"text"`, with control characters escaped and long strings cut.
    static func quoted(_ text: String) -> String {
        let shown = text.count > 60 ? text.prefix(60) + "..." : Substring(text)
        var escaped = ""
        for scalar in shown.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                escaped += "\\u{\(String(scalar.value, radix: 16))}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"\(escaped)\""
    }

    /// `integer 5`, `string "x"`, `a table`...
    static func describe(_ value: any TOMLValueConvertible) -> String {
        switch value.type {
        case .string: "string \(quoted(value.string ?? ""))"
        case .int: "integer \(value.int.map(String.init) ?? "?")"
        case .double: "floating-point number \(value.double.map { "\($0)" } ?? "?")"
        case .bool: value.bool == true ? "true" : "false"
        case .table: "a table"
        case .array: "an array"
        case .date, .time, .dateTime: "a \(value.type.description)"
        }
    }

    /// The known key within edit distance 2 of `key`, if exactly one is closest.
    static func closest(to key: String, in known: [String]) -> String? {
        let scored = known.map { ($0, editDistance(key.lowercased(), $0)) }.filter { $0.1 <= 2 }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return scored.filter { $0.1 == best.1 }.count == 1 ? best.0 : nil
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.prefix(64)), b = Array(b)
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1]
            for (j, cb) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
