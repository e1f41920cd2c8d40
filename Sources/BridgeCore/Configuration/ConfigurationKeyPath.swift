/// Builds the key paths problems are reported at: `mqtt.port`, `zwave.device[0].node`,
/// `zwave.device[2].config.28`, `cec.device[0].inputs."apple tv"` (keys that are not bare TOML keys are quoted).
enum ConfigurationKeyPath {
    /// `path.key`, or `key` at the top level.
    static func appending(_ key: String, to path: String) -> String {
        path.isEmpty ? quoted(key) : "\(path).\(quoted(key))"
    }

    /// `path[index]`.
    static func element(_ index: Int, of path: String) -> String {
        "\(path)[\(index)]"
    }

    /// The key as TOML would need it written: bare when it matches `[A-Za-z0-9_-]+`, else quoted.
    static func quoted(_ key: String) -> String {
        if TopicScheme.isValidLevel(key) { return key }
        var escaped = ""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                escaped += "\\u{\(String(scalar.value, radix: 16))}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"\(escaped)\""
    }
}
