/// Screens TOML text for the inputs that trip an assertion in toml++ 3.4 (the parser inside TOMLKit) instead
/// of a parse error: a table header whose `[` or `[[` is followed by a character that cannot start a key
/// (`[=]`, `[[[a]]]`, a `[` at the end of a line). In debug builds that assertion aborts the process; in release
/// builds it is undefined behaviour. The same holds for a date-time whose `T` is not followed by a digit
/// (`1979-05-27Tx`), a date, a space and a digit that ends the value (`1979-05-27 7 `), and an array whose `[` or
/// `,` is followed by `}` (`[}`), all found by fuzzing. Such text is reported as a syntax error without calling the
/// parser.
///
/// toml++ 3.4 also reaches a `__builtin_unreachable()` (undefined behaviour, found by UndefinedBehaviorSanitizer
/// under the in-suite fuzzer) when it asks whether a non-ASCII character is whitespace: its table of Unicode
/// whitespace has no answer for most code points (marzer/tomlplusplus#190 and #295, fixed upstream after 3.4). It
/// asks wherever whitespace may come: everywhere outside strings and comments, and in a multi-line basic string
/// right after a backslash and after a line-ending backslash, and in a value that starts with a digit or a sign,
/// which it reads ahead to the value's end (a space, a line break, `]`, `}`, `,` or `#`) past any quote: `x = 2"é"`
/// is one such value, not a number followed by a string. TOML allows only ASCII outside strings and comments, and
/// a number or a date is ASCII, so a non-ASCII character in those places is refused as a syntax error, as is one
/// right after a backslash (no escape starts with one). The one valid text refused is a multi-line basic string
/// whose text goes on, after a line-ending backslash, with a non-ASCII character: the message says to write it as an
/// escape (`\u00E9`).
///
/// A small lexer finds where toml++ would see a table header: a `[` first on a line, outside strings, comments
/// and multi-line arrays.
enum TOMLPreflight {
    /// The syntax problem toml++ would hit an assertion or unreachable code on, with the line where the
    /// construct holding it starts (a multi-line string's first line; else the problem's own), or `nil` when the
    /// text is safe to parse. The text before that line is safe to parse.
    static func problem(in text: String) -> (problem: ConfigurationProblem, startLine: Int)? {
        var lexer = Lexer(Array(text.unicodeScalars))
        guard let problem = lexer.run() else { return nil }
        return (problem, lexer.stringStartLine ?? problem.line ?? 1)
    }

    private struct Lexer {
        let scalars: [Unicode.Scalar]
        var index = 0
        var line = 1
        var column = 1
        /// The open `[` (arrays) and `{` (inline tables) of the current value, innermost last.
        var open: [Unicode.Scalar] = []
        /// Inside an array after `[` or `,`: a value (or `]`) must come next.
        var expectingArrayValue = false
        /// After a key's `=`: a value comes next.
        var expectingValue = false
        var atLineStart = true
        /// The line of the string being skipped, while ``skipString(quote:escapes:)`` is.
        var stringStartLine: Int?

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        mutating func run() -> ConfigurationProblem? {
            // toml++ skips a byte order mark, so a header right after it is still first on its line.
            if scalars.first == "\u{FEFF}" { index = 1 }
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == "\n" {
                    advance()
                    if open.isEmpty { (atLineStart, expectingValue) = (true, false) }
                    continue
                }
                if atLineStart && (scalar == " " || scalar == "\t" || scalar == "\r") {
                    advance()
                    continue
                }
                if atLineStart && open.isEmpty && scalar == "[" {
                    if let problem = checkHeader() ?? skipHeader() { return problem }
                    continue
                }
                atLineStart = false
                if scalar == " " || scalar == "\t" || scalar == "\r" {
                    advance()
                    continue
                }
                if scalar == "#" {
                    skipToEndOfLine()
                    continue
                }
                if scalar == "}" && expectingArrayValue {
                    // toml++ asserts that a value follows `[` or `,` in an array (`[}`, `[1, }` abort it).
                    return ConfigurationProblem(
                        keyPath: "", message: "TOML syntax: expected a value in an array, saw '}'", line: line,
                        column: column)
                }
                let startsValue = expectingValue || expectingArrayValue
                (expectingArrayValue, expectingValue) = (false, false)
                switch scalar {
                case "\"": if let problem = skipString(quote: "\"", escapes: true) { return problem }
                case "'": if let problem = skipString(quote: "'", escapes: false) { return problem }
                case "[", "{":
                    open.append(scalar)
                    expectingArrayValue = scalar == "["
                    advance()
                case "]", "}":
                    _ = open.popLast()
                    advance()
                case "," where open.last == "[":
                    expectingArrayValue = true
                    advance()
                case "=":
                    expectingValue = true
                    advance()
                default:
                    if let problem = nonASCII(scalar, "outside a string or comment")
                        ?? (startsValue ? checkNumberLikeValue() : nil) ?? checkDateTime()
                    {
                        return problem
                    }
                    advance()
                }
            }
            return nil
        }

        /// At a value that starts like a date-time `YYYY-MM-DDT`: toml++ asserts that a digit follows the `T`
        /// (`1979-05-27Tx` aborts a debug build), so anything else is reported here.
        func checkDateTime() -> ConfigurationProblem? {
            if index > 0, Self.continuesValue(scalars[index - 1]) { return nil }
            let pattern = Array("dddd-dd-ddT".unicodeScalars)
            guard matches(pattern, at: index) else { return nil }
            let after = index + pattern.count
            if after < scalars.count, Self.isDigit(scalars[after]) { return nil }
            let shown = after < scalars.count && scalars[after].value >= 0x20 ? "'\(scalars[after])'" : "end of line"
            return ConfigurationProblem(
                keyPath: "", message: "TOML syntax: expected a time after 'T' in a date-time, saw \(shown)", line: line,
                column: column + pattern.count)
        }

        /// At the first character of a value: one that starts with a digit or a sign is read ahead by toml++ to its
        /// end, and with it any quote (`2"é"`) and, after a date and a space, a time (`1979-05-27 0"é"`); a non-ASCII
        /// character up to there is a problem.
        func checkNumberLikeValue() -> ConfigurationProblem? {
            let start = scalars[index]
            guard Self.isDigit(start) || start == "+" || start == "-" else { return nil }
            var end = index
            func scanToEnd() -> ConfigurationProblem? {
                while end < scalars.count, !Self.endsValue(scalars[end]) {
                    if scalars[end].value > 0x7F {
                        return nonASCII(scalars[end], "in a number or date-time", column: column + end - index)
                    }
                    end += 1
                }
                return nil
            }
            if let problem = scanToEnd() { return problem }
            let date = Array("dddd-dd-dd".unicodeScalars)
            if end - index == date.count, matches(date, at: index), end + 1 < scalars.count, scalars[end] == " ",
                Self.isDigit(scalars[end + 1])
            {
                // toml++ asserts that the digit after the space is not the time's last character (`1979-05-27 7 `
                // aborts a debug build).
                end += 2
                if end < scalars.count, Self.endsValue(scalars[end]) {
                    let after = scalars[end]
                    let shown = after == " " ? "' '" : after.value < 0x20 ? "end of line" : "'\(after)'"
                    return ConfigurationProblem(
                        keyPath: "", message: "TOML syntax: expected a time after the date and space, saw \(shown)",
                        line: line, column: column + end - index)
                }
                return scanToEnd()
            }
            return nil
        }

        /// Whether the text at `start` matches `pattern`, where `d` stands for a digit and `T` for `T` or `t`.
        func matches(_ pattern: [Unicode.Scalar], at start: Int) -> Bool {
            guard start + pattern.count <= scalars.count else { return false }
            return zip(scalars[start...], pattern).allSatisfy { scalar, expected in
                switch expected {
                case "d": Self.isDigit(scalar)
                case "T": scalar == "T" || scalar == "t"
                default: scalar == expected
                }
            }
        }

        /// Where toml++ ends a value that is not a string (its `is_value_terminator`, ASCII part).
        static func endsValue(_ scalar: Unicode.Scalar) -> Bool {
            (0x09...0x0D).contains(scalar.value) || [" ", "]", "}", ",", "#"].contains(scalar)
        }

        static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

        /// Whether `scalar` can be part of a bare key or value, so a date cannot start right after it.
        static func continuesValue(_ scalar: Unicode.Scalar) -> Bool {
            startsKey(scalar) || scalar == "." || scalar == "+" || scalar == ":"
        }

        /// At a header's `[`: the character after `[` or `[[` (and spaces) must start a key or be `]`.
        func checkHeader() -> ConfigurationProblem? {
            var lookahead = index + 1
            func skipBlanks() {
                while lookahead < scalars.count, scalars[lookahead] == " " || scalars[lookahead] == "\t" {
                    lookahead += 1
                }
            }
            skipBlanks()
            if lookahead < scalars.count, scalars[lookahead] == "[" {
                lookahead += 1
                skipBlanks()
            }
            guard lookahead < scalars.count else { return nil }
            let next = scalars[lookahead]
            guard !Self.startsKey(next) && next != "]" else { return nil }
            let shown = next.properties.isWhitespace || next.value < 0x20 ? "end of line" : "'\(next)'"
            return ConfigurationProblem(
                keyPath: "", message: "TOML syntax: expected a table name after '[', saw \(shown)", line: line,
                column: column + lookahead - index)
        }

        static func startsKey(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar {
            case "A"..."Z", "a"..."z", "0"..."9", "_", "-", "\"", "'": true
            default: false
            }
        }

        mutating func skipToEndOfLine() {
            while index < scalars.count && scalars[index] != "\n" { advance() }
        }

        /// Skips a basic or literal string, single- or multi-line; stops at the end of the line for an
        /// unterminated single-line string (toml++ reports that as an error before going further). In a multi-line
        /// basic string, a non-ASCII character right after a backslash, or first after a line-ending backslash and
        /// the blanks and line breaks it trims, is a problem (toml++ asks whether it is whitespace).
        mutating func skipString(quote: Unicode.Scalar, escapes: Bool) -> ConfigurationProblem? {
            let multiline = index + 2 < scalars.count && scalars[index + 1] == quote && scalars[index + 2] == quote
            stringStartLine = line
            advance(by: multiline ? 3 : 1)
            while index < scalars.count {
                let scalar = scalars[index]
                if escapes && scalar == "\\" {
                    advance()
                    // The problem is returned with stringStartLine still set: problem(in:) reads it.
                    if multiline, let problem = checkAfterBackslash() { return problem }
                    advance()
                } else if multiline {
                    if scalar == quote && index + 2 < scalars.count && scalars[index + 1] == quote
                        && scalars[index + 2] == quote
                    {
                        advance(by: 3)
                        break
                    }
                    advance()
                } else if scalar == quote {
                    advance()
                    break
                } else if scalar == "\n" {
                    break
                } else {
                    advance()
                }
            }
            stringStartLine = nil
            return nil
        }

        /// Right after a backslash in a multi-line basic string: the escaped character, or for a line-ending
        /// backslash the first character after the blanks and line breaks it trims, must be ASCII.
        func checkAfterBackslash() -> ConfigurationProblem? {
            guard index < scalars.count else { return nil }
            if scalars[index].value > 0x7F {
                return nonASCII(scalars[index], "right after a backslash (no escape starts with it)")
            }
            var lookahead = index
            var (line, column) = (self.line, self.column)
            while lookahead < scalars.count, [" ", "\t", "\r", "\n"].contains(scalars[lookahead]) {
                if scalars[lookahead] == "\n" {
                    (line, column) = (line + 1, 1)
                } else {
                    column += 1
                }
                lookahead += 1
            }
            guard lookahead > index, lookahead < scalars.count, scalars[lookahead].value > 0x7F else { return nil }
            let scalar = scalars[lookahead]
            return ConfigurationProblem(
                keyPath: "",
                message: "TOML syntax: \(Self.describe(scalar)) first after a line-ending backslash, which the TOML "
                    + "parser cannot take: write it as the escape \\u\(Self.hex(scalar))",
                line: line, column: column)
        }

        /// The rest of a table header's line after ``checkHeader()``: its key, then blanks and a comment. Quoted
        /// key parts are skipped as strings; a non-ASCII character outside them is a problem.
        mutating func skipHeader() -> ConfigurationProblem? {
            while index < scalars.count && scalars[index] != "\n" {
                let scalar = scalars[index]
                switch scalar {
                case "\"", "'":
                    if let problem = skipString(quote: scalar, escapes: scalar == "\"") { return problem }
                case "#":
                    skipToEndOfLine()
                default:
                    if let problem = nonASCII(scalar, "outside a string or comment") { return problem }
                    advance()
                }
            }
            return nil
        }

        /// A non-ASCII `scalar` at the current position, `place` saying where: toml++ would ask whether it is
        /// whitespace (see the type's documentation). `nil` for an ASCII one.
        func nonASCII(_ scalar: Unicode.Scalar, _ place: String, column: Int? = nil) -> ConfigurationProblem? {
            guard scalar.value > 0x7F else { return nil }
            return ConfigurationProblem(
                keyPath: "",
                message: "TOML syntax: \(Self.describe(scalar)) \(place): TOML allows only ASCII there", line: line,
                column: column ?? self.column)
        }

        /// `'é' (U+00E9)`; a character that does not print is shown by its code point only.
        static func describe(_ scalar: Unicode.Scalar) -> String {
            let hidden: Set<Unicode.GeneralCategory> = [.control, .format, .nonspacingMark, .enclosingMark]
            let printable = !scalar.properties.isWhitespace && !hidden.contains(scalar.properties.generalCategory)
            return printable ? "'\(scalar)' (U+\(hex(scalar)))" : "U+\(hex(scalar))"
        }

        static func hex(_ scalar: Unicode.Scalar) -> String {
            let digits = String(scalar.value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }

        mutating func advance(by count: Int = 1) {
            for _ in 0..<count where index < scalars.count {
                if scalars[index] == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
                index += 1
            }
        }
    }
}
