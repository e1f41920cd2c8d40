/// `[web]`: the dashboard (pages, WebSocket, `/health`, `/metrics`) served by the daemon. The section absent means
/// no web server. Two roles (DocC: Security): `admin_token` may do everything the dashboard offers, `control_token`
/// only switch this bridge's devices. A `listen` address beyond loopback needs `admin_token` (or
/// `admin_token_file`); on loopback without tokens everyone who reaches the port is admin.
public struct WebSection: Sendable, Equatable {
    /// `listen`: where to serve, default `127.0.0.1:8080`.
    public var listen: WebListenAddress
    /// `admin_token` or `admin_token_file` (or the deprecated `auth_token` / `auth_token_file`): the admin role.
    public var adminToken: DashboardTokenSetting?
    /// `control_token` or `control_token_file`: the control role (the wall tablet); needs an admin token too.
    public var controlToken: DashboardTokenSetting?
    /// `secure_cookie`: the token cookie gets the `Secure` attribute (for a TLS proxy in front of the dashboard).
    public var secureCookie: Bool

    public static let defaultListen = WebListenAddress(host: "127.0.0.1", port: 8080)

    public init(
        listen: WebListenAddress = WebSection.defaultListen, adminToken: DashboardTokenSetting? = nil,
        controlToken: DashboardTokenSetting? = nil, secureCookie: Bool = false
    ) {
        self.listen = listen
        self.adminToken = adminToken
        self.controlToken = controlToken
        self.secureCookie = secureCookie
    }

    /// Whether requests must carry a token (an admin token is configured, inline or in a file).
    public var requiresToken: Bool { adminToken != nil }

    /// The line the daemon logs at start when the admin token comes from the old key, nil otherwise.
    public var deprecationNotice: String? {
        guard let adminToken, adminToken.isDeprecated else { return nil }
        let replacement = "admin_token" + adminToken.key.dropFirst("auth_token".count)
        return "[web] \(adminToken.key) is deprecated: it is taken as \(replacement) (the admin role); rename it"
    }
}

/// One of the dashboard's tokens as devices.toml gives it: inline or as a file to read, under which key.
public struct DashboardTokenSetting: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// Written in devices.toml.
        case inline(DashboardToken)
        /// A file whose first line is the token (kept out of devices.toml, like `[mqtt] password_file`).
        case file(String)
    }

    /// The key in `[web]`: `admin_token`, `control_token_file`, `auth_token`...
    public let key: String
    public let source: Source

    public init(key: String, source: Source) {
        self.key = key
        self.source = source
    }

    /// `web.<key>`.
    public var keyPath: String { "web." + key }

    /// Whether it comes from the old single-token keys (`auth_token`, `auth_token_file`).
    public var isDeprecated: Bool { key.hasPrefix("auth_token") }

    /// The token (read from its file, checked like `check-config` does); never logged.
    public func read() throws(DashboardTokenError) -> DashboardToken {
        switch source {
        case .inline(let token): token
        case .file(let path): try DashboardToken(contentsOfFile: path)
        }
    }
}

/// Where the web server listens: an IP address (IPv4, or IPv6 in brackets) or `localhost`, and a port (0: any free
/// port, which the daemon logs).
public struct WebListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// `127.0.0.1`, `0.0.0.0`, `::1` (without brackets) or `localhost`.
    public let host: String
    public let port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `host:port`: `127.0.0.1:8080`, `0.0.0.0:8080`, `[::1]:8080`, `localhost:8080`.
    public init(parsing text: String) throws(ParseError) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw ParseError("an IPv6 address must be written in brackets with a port, like [::1]:8080")
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
            guard Self.isIPv6(host) else { throw ParseError("\"\(host.prefix(64))\" is not an IPv6 address") }
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw ParseError("must be host:port, like 127.0.0.1:8080")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            guard host == "localhost" || Self.ipv4(host) != nil else {
                throw ParseError(
                    "the host must be an IP address or localhost, like 127.0.0.1, 0.0.0.0 or [::1] "
                        + "(got \"\(host.prefix(64))\")")
            }
        }
        guard let port = Int(portText), (0...65_535).contains(port), portText.allSatisfy(\.isASCII) else {
            throw ParseError("the port must be 0-65535 (0: any free port), got \"\(portText.prefix(16))\"")
        }
        self.init(host: String(host), port: port)
    }

    /// Whether only this machine can reach it: `127.0.0.0/8`, `::1` or `localhost`.
    public var isLoopback: Bool {
        if host == "localhost" { return true }
        if let octets = Self.ipv4(Substring(host)) { return octets[0] == 127 }
        return Self.isIPv6Loopback(host)
    }

    /// `127.0.0.1:8080`, `[::1]:8080`.
    public var description: String { "\(urlHost):\(port)" }

    /// The host as written in a URL (IPv6 in brackets).
    public var urlHost: String { host.contains(":") ? "[\(host)]" : host }

    /// Why a `listen` value is not an address.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    package static func ipv4(_ text: Substring) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [Int] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(part),
                value <= 255
            else { return nil }
            octets.append(value)
        }
        return octets
    }

    package static func isIPv6(_ text: Substring) -> Bool {
        guard text.contains(":"), text.count <= 45 else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isHexDigit || $0 == ":" || $0 == ".") }
    }

    package static func isIPv6Loopback(_ text: String) -> Bool {
        // `::1` in any spelling: every group zero but the last, which is 1.
        let groups = text.split(separator: ":", omittingEmptySubsequences: true)
        guard let last = groups.last, Int(last, radix: 16) == 1 else { return false }
        return groups.dropLast().allSatisfy { Int($0, radix: 16) == 0 }
    }
}
