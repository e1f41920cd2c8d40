/// `[web]`: the dashboard (pages, WebSocket, `/health`, `/metrics`) served by the daemon. The section absent means
/// no web server. A `listen` address beyond loopback needs a token (`auth_token` or `auth_token_file`): the
/// dashboard switches lights and includes devices.
public struct WebSection: Sendable, Equatable {
    /// `listen`: where to serve, default `127.0.0.1:8080`.
    public var listen: WebListenAddress
    /// `auth_token`: the token written in devices.toml.
    public var authToken: DashboardToken?
    /// `auth_token_file`: a file whose first line is the token (kept out of devices.toml, like
    /// `[mqtt] password_file`).
    public var authTokenFile: String?

    public static let defaultListen = WebListenAddress(host: "127.0.0.1", port: 8080)

    public init(
        listen: WebListenAddress = WebSection.defaultListen, authToken: DashboardToken? = nil,
        authTokenFile: String? = nil
    ) {
        self.listen = listen
        self.authToken = authToken
        self.authTokenFile = authTokenFile
    }

    /// Whether requests must carry the token (one is configured, inline or in a file).
    public var requiresToken: Bool { authToken != nil || authTokenFile != nil }
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

    static func ipv4(_ text: Substring) -> [Int]? {
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

    static func isIPv6(_ text: Substring) -> Bool {
        guard text.contains(":"), text.count <= 45 else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isHexDigit || $0 == ":" || $0 == ".") }
    }

    static func isIPv6Loopback(_ text: String) -> Bool {
        // `::1` in any spelling: every group zero but the last, which is 1.
        let groups = text.split(separator: ":", omittingEmptySubsequences: true)
        guard let last = groups.last, Int(last, radix: 16) == 1 else { return false }
        return groups.dropLast().allSatisfy { Int($0, radix: 16) == 0 }
    }
}
