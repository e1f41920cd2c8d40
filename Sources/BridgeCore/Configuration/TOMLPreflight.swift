/// Screens TOML text for the inputs that trip an assertion in toml++ 3.4 (the parser inside TOMLKit) instead
/// of a parse error: a table header whose `[` or `[[` is followed by a character that cannot start a key
/// (`[=]`, `[[[a]]]`, a `[` at the end of a line). In debug builds that assertion aborts the process; in release
/// builds it is undefined behaviour. Such text is reported as a syntax error without calling the parser.
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
        var depth = 0
        var atLineStart = true

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        mutating func run() -> ConfigurationProblem? {
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == "\n" {
                    advance()
                    if depth == 0 { atLineStart = true }
                    continue
                }
                if atLineStart && (scalar == " " || scalar == "\t" || scalar == "\r") {
                    advance()
                    continue
                }
                if atLineStart && depth == 0 && scalar == "[" {
                    if let problem = checkHeader() { return problem }
                    skipToEndOfLine()
                    continue
                }
                atLineStart = false
                switch scalar {
                case "#": skipToEndOfLine()
                case "\"": skipString(quote: "\"", escapes: true)
                case "'": skipString(quote: "'", escapes: false)
                case "[", "{":
                    depth += 1
                    advance()
                case "]", "}":
                    depth = max(0, depth - 1)
                    advance()
                default: advance()
                }
            }
            return nil
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
