public import SystemSupport

/// `[mqtt]`: how to reach the broker. Credentials stay out of devices.toml: the password is read from a file.
public struct MQTTSection: Sendable, Equatable {
    /// `host`: default `localhost`.
    public var host: String
    /// `port`: 1-65535, default 1883 (8883 is usual with TLS).
    public var port: Int
    /// `username`, if the broker wants one.
    public var username: String?
    /// `password_file`: a file whose first line is the password (requires `username`).
    public var passwordFile: String?
    /// `ca_file`: set means TLS on, with the server certificate verified against this CA.
    public var caFile: String?
    /// `cert_file` and `key_file`: an optional client certificate (always both or neither).
    public var certFile: String?
    public var keyFile: String?

    public static let defaultHost = "localhost"
    public static let defaultPort = 1883

    public init(
        host: String = MQTTSection.defaultHost, port: Int = MQTTSection.defaultPort, username: String? = nil,
        passwordFile: String? = nil, caFile: String? = nil, certFile: String? = nil,
        keyFile: String? = nil
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.passwordFile = passwordFile
        self.caFile = caFile
        self.certFile = certFile
        self.keyFile = keyFile
    }

    /// Whether the connection uses TLS (a CA file or a client certificate is configured).
    public var usesTLS: Bool { caFile != nil || certFile != nil }

    /// The password in `password_file`: its first line. The daemon reads it with this, and `check-config` checks
    /// the file with this, so a file the daemon cannot use is refused before it starts.
    public static func password(fromFile path: String) throws(TextFileError) -> String {
        let text = try readTextFile(path)
        return String(text.prefix { $0 != "\n" && $0 != "\r" })
    }
}
