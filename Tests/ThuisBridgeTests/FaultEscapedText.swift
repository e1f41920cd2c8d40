import Foundation

/// A string escaped for a JSON string literal / a TOML basic string (quotes, backslashes, control characters).
struct FaultEscapedText {
    let text: String

    init(_ raw: String) {
        var out = ""
        for scalar in raw.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        text = out
    }
}
