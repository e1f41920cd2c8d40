public import BridgeCore

/// Who may use the dashboard, decided for every HTTP request and WebSocket upgrade from its headers and query (pure).
///
/// - With a token: `Authorization: Bearer <token>`, or the `thuis_token` cookie, or `?token=<token>`. A page opened
///   with `?token=` once is redirected to itself without it, setting the cookie (HttpOnly, SameSite=Strict), which the
///   browser then sends with every request, its WebSocket included (browsers cannot set headers on a WebSocket).
///   Tokens are compared in constant time.
/// - Without a token (only allowed on loopback): open, but only to requests naming this machine (`Host` localhost,
///   127.x or [::1]), so a web page that rebinds its own name to 127.0.0.1 gets nothing.
/// - Always: a request that carries an `Origin` (a browser's WebSocket or script) must come from the dashboard's own
///   origin, so another site open in the same browser cannot use the user's cookie or the open loopback.
public struct DashboardAccess: Sendable {
    /// The cookie that carries the token.
    public static let cookieName = "thuis_token"

    let token: DashboardToken?

    public init(token: DashboardToken?) {
        self.token = token
    }

    /// What to do with a request.
    public enum Decision: Sendable, Equatable {
        case allowed
        /// Authenticated by `?token=`: redirect to `location` (the same page without the token) with `setCookie`.
        case redirect(location: String, setCookie: String)
        /// No token or a wrong one: 401.
        case unauthorized(String)
        /// A foreign origin or host: 403.
        case forbidden(String)
    }

    /// The parts of a request the decision needs.
    public struct Request: Sendable {
        public var path: String
        public var query: String?
        public var authorization: String?
        public var cookies: [String]
        public var host: String?
        public var origin: String?
        /// A WebSocket upgrade (never redirected: the token in its query is taken as it is).
        public var upgrade: Bool

        public init(
            path: String, query: String? = nil, authorization: String? = nil, cookies: [String] = [],
            host: String? = nil, origin: String? = nil, upgrade: Bool = false
        ) {
            self.path = path
            self.query = query
            self.authorization = authorization
            self.cookies = cookies
            self.host = host
            self.origin = origin
            self.upgrade = upgrade
        }
    }

    public func decide(_ request: Request) -> Decision {
        // A browser's Origin is its page's (http, https, or null for a file or a sandbox); other clients may send
        // anything (a WebSocket library's `ws://host`), and only browsers carry the user's cookie to a foreign site.
        if let origin = request.origin, origin == "null" || origin.hasPrefix("http://") || origin.hasPrefix("https://")
        {
            guard let host = request.host, origin == "http://\(host)" || origin == "https://\(host)" else {
                return .forbidden("cross-origin request refused (Origin \(origin.prefix(100)))")
            }
        }
        guard let token else {
            guard let host = request.host, Self.isLoopbackHost(host) else {
                return .forbidden(
                    "this dashboard has no token and answers only to this machine's own names (localhost, 127.0.0.1, "
                        + "[::1])")
            }
            return .allowed
        }
        if let header = request.authorization {
            let parts = header.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer", token.matches(parts[1].utf8) else {
                return .unauthorized("wrong token in the Authorization header")
            }
            return .allowed
        }
        if let cookie = Self.cookie(Self.cookieName, in: request.cookies), token.matches(cookie.utf8) {
            return .allowed
        }
        if let given = Self.queryValue("token", in: request.query) {
            guard token.matches(given.utf8) else { return .unauthorized("wrong token") }
            if request.upgrade { return .allowed }
            let rest = Self.removing("token", from: request.query)
            // Only a path on this server: `//host/...` would be another site's address.
            let path = request.path.hasPrefix("/") && !request.path.hasPrefix("//") ? request.path : "/"
            return .redirect(
                location: path + (rest.map { "?" + $0 } ?? ""),
                setCookie: "\(Self.cookieName)=\(String(decoding: token.bytes, as: UTF8.self)); Path=/; HttpOnly; "
                    + "SameSite=Strict")
        }
        return .unauthorized("this dashboard needs its token: open it once as /?token=<[web] auth_token>")
    }

    /// `localhost`, `127.x.x.x` or `[::1]`, with or without a port.
    static func isLoopbackHost(_ host: String) -> Bool {
        var name = Substring(host)
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            name = name[name.index(after: name.startIndex)..<close]
        } else if let colon = name.lastIndex(of: ":") {
            name = name[..<colon]
        }
        if name.lowercased() == "localhost" { return true }
        return WebListenAddress(host: String(name), port: 0).isLoopback
    }

    /// The value of cookie `name` in `Cookie` headers (`a=1; thuis_token=...`).
    static func cookie(_ name: String, in headers: [String]) -> String? {
        for header in headers {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                if trimmed.hasPrefix(name + "=") { return String(trimmed.dropFirst(name.count + 1)) }
            }
        }
        return nil
    }

    /// The (undecoded) value of `name` in a query `a=1&token=...`.
    static func queryValue(_ name: String, in query: String?) -> String? {
        guard let query else { return nil }
        for pair in query.split(separator: "&") where pair.hasPrefix(name + "=") {
            return String(pair.dropFirst(name.count + 1))
        }
        return nil
    }

    /// The query without `name`; nil when nothing is left.
    static func removing(_ name: String, from query: String?) -> String? {
        let rest = (query ?? "").split(separator: "&").filter { !$0.hasPrefix(name + "=") && $0 != name }
        return rest.isEmpty ? nil : rest.joined(separator: "&")
    }
}
