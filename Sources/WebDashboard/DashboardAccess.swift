public import BridgeCore

/// What a dashboard user may do (DocC: Security).
public enum DashboardRole: String, Sendable, Hashable {
    /// The wall tablet: the tiles, the states, the events, this bridge's device commands and the mapped scenes.
    case control
    /// All that, plus the network pages and every bridge request (include, exclude, set_config, cec_tx...).
    case admin
}

/// Who may use the dashboard, and in which ``DashboardRole``, decided for every HTTP request and WebSocket upgrade
/// from its headers and query (pure).
///
/// - With tokens (`admin`, and optionally `control`): `Authorization: Bearer <token>`, or the `thuis_token` cookie,
///   or `?token=<token>`; the token given says the role. A page opened with `?token=` once is redirected to itself
///   without it, setting the cookie (HttpOnly, SameSite=Strict, Secure with `secureCookie`), which the browser then
///   sends with every request, its WebSocket included (browsers cannot set headers on a WebSocket). An
///   `Authorization` header of another scheme (a proxy's Basic login) is not the dashboard's and is passed over.
///   Tokens are compared in constant time.
/// - Without tokens (only allowed on loopback): admin, but only to requests naming this machine exactly (`Host`
///   `localhost`, `127.x.x.x` or `[::1]`, with a port or without), so a web page that rebinds its own name to
///   127.0.0.1 gets nothing.
/// - Always: a request that carries an `Origin` (a browser's WebSocket or script) must come from the dashboard's own
///   origin, so another site open in the same browser cannot use the user's cookie or the open loopback.
/// - The network pages (``adminPaths``) need the admin role.
public struct DashboardAccess: Sendable {
    /// The cookie that carries the token.
    public static let cookieName = "thuis_token"

    let admin: DashboardToken?
    let control: DashboardToken?
    let secureCookie: Bool

    /// `control` is only used together with `admin` (the configuration refuses it alone).
    public init(admin: DashboardToken?, control: DashboardToken? = nil, secureCookie: Bool = false) {
        self.admin = admin
        self.control = admin == nil ? nil : control
        self.secureCookie = secureCookie
    }

    /// What to do with a request.
    public enum Decision: Sendable, Equatable {
        case allowed(DashboardRole)
        /// Authenticated by `?token=`: redirect to `location` (the same page without the token) with `setCookie`.
        case redirect(location: String, setCookie: String)
        /// No token or a wrong one: 401.
        case unauthorized(String)
        /// A foreign origin or host, or a page the role may not see: 403.
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

    /// The pages only the admin sees: the network and its nodes.
    public static func isAdminPath(_ path: String) -> Bool {
        path == "/network" || path.hasPrefix("/network/") || path.hasPrefix("/node/")
    }

    public func decide(_ request: Request) -> Decision {
        let decision = authenticate(request)
        if case .allowed(.control) = decision, Self.isAdminPath(request.path) {
            return .forbidden("\(request.path.prefix(100)) is the admin's: the control token switches devices only")
        }
        return decision
    }

    private func authenticate(_ request: Request) -> Decision {
        // A browser's Origin is its page's (http, https, or null for a file or a sandbox); other clients may send
        // anything (a WebSocket library's `ws://host`), and only browsers carry the user's cookie to a foreign site.
        if let origin = request.origin, origin == "null" || origin.hasPrefix("http://") || origin.hasPrefix("https://")
        {
            guard let host = request.host, origin == "http://\(host)" || origin == "https://\(host)" else {
                return .forbidden("cross-origin request refused (Origin \(origin.prefix(100)))")
            }
        }
        guard let admin else {
            guard let host = request.host, Self.isLoopbackHost(host) else {
                return .forbidden(
                    "this dashboard has no token and answers only to this machine's own names (localhost, 127.0.0.1, "
                        + "[::1])")
            }
            return .allowed(.admin)
        }
        func role(_ candidate: some Collection<UInt8>) -> DashboardRole? {
            // Both compared, so the time taken does not say which role a guess came close to.
            let isAdmin = admin.matches(candidate)
            let isControl = control?.matches(candidate) ?? false
            // A token that is both (the configuration refuses equal tokens) gets the lesser role: the wall tablet's
            // token never makes anyone admin.
            return isControl ? .control : isAdmin ? .admin : nil
        }
        if let header = request.authorization {
            let parts = header.split(separator: " ", maxSplits: 1)
            if parts.first?.lowercased() == "bearer" {
                guard parts.count == 2, let role = role(parts[1].utf8) else {
                    return .unauthorized("wrong token in the Authorization header")
                }
                return .allowed(role)
            }
        }
        // A token in the query before the cookie: opening `?token=` switches a browser to that token (and role).
        if let given = Self.queryValue("token", in: request.query) {
            guard let role = role(given.utf8) else { return .unauthorized("wrong token") }
            if request.upgrade { return .allowed(role) }
            let rest = Self.removing("token", from: request.query)
            // Only a path on this server: `//host/...` would be another site's address.
            let path = request.path.hasPrefix("/") && !request.path.hasPrefix("//") ? request.path : "/"
            return .redirect(
                location: path + (rest.map { "?" + $0 } ?? ""),
                setCookie: "\(Self.cookieName)=\(given); Path=/; HttpOnly; SameSite=Strict"
                    + (secureCookie ? "; Secure" : ""))
        }
        if let cookie = Self.cookie(Self.cookieName, in: request.cookies), let role = role(cookie.utf8) {
            return .allowed(role)
        }
        return .unauthorized(
            "this dashboard needs its token: open it once as /?token=<[web] admin_token or control_token>")
    }

    /// Exactly `localhost`, `127.x.x.x` or `[::1]` (any spelling of it), each with a port or without: nothing else
    /// (`1`, `0:1` or `localhost.example` are other names).
    static func isLoopbackHost(_ host: String) -> Bool {
        let name: Substring
        let rest: Substring
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let inside = host[host.index(after: host.startIndex)..<close]
            guard WebListenAddress.isIPv6(inside), WebListenAddress.isIPv6Loopback(String(inside)) else { return false }
            name = inside
            rest = host[host.index(after: close)...]
        } else {
            let colon = host.firstIndex(of: ":") ?? host.endIndex
            name = host[..<colon]
            rest = host[colon...]
            guard name.lowercased() == "localhost" || WebListenAddress.ipv4(name)?.first == 127 else { return false }
        }
        guard !name.isEmpty else { return false }
        if rest.isEmpty { return true }
        let port = rest.dropFirst()
        return rest.first == ":" && (1...5).contains(port.count) && port.allSatisfy { $0.isASCII && $0.isNumber }
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
