/// Screens TOML text for the inputs that trip an assertion in toml++ 3.4 (the parser inside TOMLKit) instead
/// of a parse error: a table header whose `[` or `[[` is followed by a character that cannot start a key
/// (`[=]`, `[[[a]]]`, a `[` at the end of a line). In debug builds that assertion aborts the process; in release
/// builds it is undefined behaviour. The same holds for a date-time whose `T` is not followed by a digit
/// (`1979-05-27Tx`) and an array whose `[` or `,` is followed by `}` (`[}`), both found by fuzzing. Such text is reported as a syntax error without calling the parser.
///
/// A small lexer finds where toml++ would see a table header: a `[` first on a line, outside strings, comments
/// and multi-line arrays.
enum TOMLPreflight {
    /// The syntax problem toml++ would hit an assertion on, or `nil` when the text is safe to parse.
    static func problem(in text: String) -> ConfigurationProblem? {
        var lexer = Lexer(Array(text.unicodeScalars))
        return lexer.run()
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
        var atLineStart = true

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        mutating func run() -> ConfigurationProblem? {
            // toml++ skips a byte order mark, so a header right after it is still first on its line.
            if scalars.first == "\u{FEFF}" { index = 1 }
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == "\n" {
                    advance()
                    if open.isEmpty { atLineStart = true }
                    continue
                }
                if atLineStart && (scalar == " " || scalar == "\t" || scalar == "\r") {
                    advance()
                    continue
                }
                if atLineStart && open.isEmpty && scalar == "[" {
                    if let problem = checkHeader() { return problem }
                    skipToEndOfLine()
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
                expectingArrayValue = false
                switch scalar {
                case "\"": skipString(quote: "\"", escapes: true)
                case "'": skipString(quote: "'", escapes: false)
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
                default:
                    if let problem = checkDateTime() { return problem }
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
            guard index + pattern.count <= scalars.count else { return nil }
            for (offset, expected) in pattern.enumerated() {
                let scalar = scalars[index + offset]
                switch expected {
                case "d": guard Self.isDigit(scalar) else { return nil }
                case "T": guard scalar == "T" || scalar == "t" else { return nil }
                default: guard scalar == expected else { return nil }
                }
            }
            let after = index + pattern.count
            if after < scalars.count, Self.isDigit(scalars[after]) { return nil }
            let shown = after < scalars.count && scalars[after].value >= 0x20 ? "'\(scalars[after])'" : "end of line"
            return ConfigurationProblem(
                keyPath: "", message: "TOML syntax: expected a time after 'T' in a date-time, saw \(shown)", line: line,
                column: column + pattern.count)
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
        /// unterminated single-line string (toml++ reports that as an error before going further).
        mutating func skipString(quote: Unicode.Scalar, escapes: Bool) {
            let multiline = index + 2 < scalars.count && scalars[index + 1] == quote && scalars[index + 2] == quote
            advance(by: multiline ? 3 : 1)
            while index < scalars.count {
                let scalar = scalars[index]
                if escapes && scalar == "\\" {
                    advance(by: 2)
                } else if multiline {
                    if scalar == quote && index + 2 < scalars.count && scalars[index + 1] == quote
                        && scalars[index + 2] == quote
                    {
                        advance(by: 3)
                        return
                    }
                    advance()
                } else if scalar == quote {
                    advance()
                    return
                } else if scalar == "\n" {
                    return
                } else {
                    advance()
                }
            }
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
