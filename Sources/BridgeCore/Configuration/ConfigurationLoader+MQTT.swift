extension ConfigurationLoader {
    /// `[mqtt]`: every key optional; `password_file` needs `username`, `cert_file` and `key_file` come together
    /// and need `ca_file` (a client certificate is only sent over TLS, which `ca_file` turns on).
    static func readMQTT(_ root: TableReader) -> MQTTSection? {
        guard root.contains("mqtt") else { return MQTTSection() }
        let known = ["host", "port", "username", "password_file", "ca_file", "cert_file", "key_file"]
        guard let table = root.table("mqtt", known: known) else { return nil }
        var valid = true
        /// An optional key's value; a present but invalid one (already reported) makes the section invalid.
        func optional<T>(_ value: T?, _ key: String) -> T? {
            if value == nil && table.contains(key) { valid = false }
            return value
        }
        let host = optional(table.nonEmptyString("host"), "host") ?? MQTTSection.defaultHost
        let port = optional(table.int("port", in: 1...65_535), "port") ?? MQTTSection.defaultPort
        let username = optional(table.nonEmptyString("username"), "username")
        let passwordFile = optional(table.nonEmptyString("password_file"), "password_file")
        let caFile = optional(table.nonEmptyString("ca_file"), "ca_file")
        let certFile = optional(table.nonEmptyString("cert_file"), "cert_file")
        let keyFile = optional(table.nonEmptyString("key_file"), "key_file")

        if table.contains("password_file") && !table.contains("username") {
            table.report("password_file", "requires username")
            valid = false
        }
        if table.contains("cert_file") != table.contains("key_file") {
            let (present, absent) = table.contains("cert_file") ? ("cert_file", "key_file") : ("key_file", "cert_file")
            table.report(present, "requires \(absent) (a client certificate needs both)")
            valid = false
        } else if table.contains("cert_file") && !table.contains("ca_file") {
            table.report(
                "cert_file", "requires ca_file (a client certificate is only used over TLS, which ca_file turns on)")
            valid = false
        }
        guard valid else { return nil }
        return MQTTSection(
            host: host, port: port, username: username, passwordFile: passwordFile, caFile: caFile,
            certFile: certFile, keyFile: keyFile)
    }
}
