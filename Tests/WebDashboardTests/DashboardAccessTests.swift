import BridgeCore
import Testing
import WebDashboard

/// Who may use the dashboard, in which role (the decision alone; DashboardServerTests sees it on the wire).
@Suite struct DashboardAccessTests {
    static let secret = "0123456789abcdef0123456789abcdef"
    static let tablet = "tablet-0123456789abcdef"
    let locked = DashboardAccess(
        admin: try? DashboardToken(text: secret), control: try? DashboardToken(text: tablet))
    let open = DashboardAccess(admin: nil)

    func request(
        _ path: String = "/", query: String? = nil, authorization: String? = nil, cookies: [String] = [],
        host: String? = "127.0.0.1:8080", origin: String? = nil, upgrade: Bool = false
    ) -> DashboardAccess.Request {
        .init(
            path: path, query: query, authorization: authorization, cookies: cookies, host: host, origin: origin,
            upgrade: upgrade)
    }

    @Test func withoutATokenOnlyThisMachinesNamesAreServed() {
        for host in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST", "[::1]:8080", "127.0.0.2"] {
            #expect(open.decide(request(host: host)) == .allowed(.admin), "\(host)")
        }
        // The name exactly: `1` and `0:1` are not this machine, whatever an address parser would make of them.
        for host in [
            "evil.example:8080", "192.168.1.5:8080", "[fe80::1]:8080", "localhost.evil.example", "1", "0:1", "::1",
            "127.0.0.1:80:80", "127.0.0.1:", "127.0.0.1:http", "[::1]x", "[::1]:", "127.1", "localhost:8080@evil",
        ] {
            guard case .forbidden = open.decide(request(host: host)) else {
                Issue.record("\(host) was served without a token")
                continue
            }
        }
        guard case .forbidden = open.decide(request(host: nil)) else {
            Issue.record("a request without a Host was served")
            return
        }
    }

    @Test func aForeignOriginIsRefusedEvenWithTheRightCookie() {
        let cookie = ["thuis_token=\(Self.secret)"]
        #expect(locked.decide(request(cookies: cookie, origin: "http://127.0.0.1:8080")) == .allowed(.admin))
        for origin in ["http://evil.example", "null", "http://127.0.0.1:9999"] {
            guard case .forbidden = locked.decide(request(cookies: cookie, origin: origin, upgrade: true)) else {
                Issue.record("origin \(origin) was let in")
                continue
            }
            guard case .forbidden = open.decide(request(origin: origin, upgrade: true)) else {
                Issue.record("origin \(origin) was let into the open dashboard")
                continue
            }
        }
    }

    @Test func theTokenComesAsABearerHeaderACookieOrOnceInTheQuery() {
        #expect(locked.decide(request(authorization: "Bearer \(Self.secret)")) == .allowed(.admin))
        #expect(locked.decide(request(authorization: "bearer \(Self.secret)")) == .allowed(.admin))
        #expect(locked.decide(request(cookies: ["a=1; thuis_token=\(Self.secret); b=2"])) == .allowed(.admin))
        #expect(
            locked.decide(request("/network", query: "token=\(Self.secret)&x=1"))
                == .redirect(
                    location: "/network?x=1",
                    setCookie: "thuis_token=\(Self.secret); Path=/; HttpOnly; SameSite=Strict"))
        // The redirect stays on this server, whatever the path looked like.
        #expect(
            locked.decide(request("//evil.example/x", query: "token=\(Self.secret)"))
                == .redirect(
                    location: "/", setCookie: "thuis_token=\(Self.secret); Path=/; HttpOnly; SameSite=Strict"))
        // A WebSocket takes the query as it is (no redirect there).
        #expect(locked.decide(request("/ws", query: "token=\(Self.secret)", upgrade: true)) == .allowed(.admin))
    }

    @Test func theTokenGivenSaysTheRoleAndTheNetworkPagesAreTheAdmins() {
        #expect(locked.decide(request(authorization: "Bearer \(Self.tablet)")) == .allowed(.control))
        #expect(
            locked.decide(request("/ws", cookies: ["thuis_token=\(Self.tablet)"], upgrade: true)) == .allowed(.control))
        #expect(locked.decide(request("/events", cookies: ["thuis_token=\(Self.tablet)"])) == .allowed(.control))
        for path in ["/network", "/node/2"] {
            guard case .forbidden(let reason) = locked.decide(request(path, authorization: "Bearer \(Self.tablet)"))
            else {
                Issue.record("the control token saw \(path)")
                continue
            }
            #expect(reason.contains("admin"), "\(reason)")
            #expect(locked.decide(request(path, authorization: "Bearer \(Self.secret)")) == .allowed(.admin))
        }
        // The cookie set from `?token=` is the token given.
        #expect(
            locked.decide(request(query: "token=\(Self.tablet)"))
                == .redirect(location: "/", setCookie: "thuis_token=\(Self.tablet); Path=/; HttpOnly; SameSite=Strict"))
        // `?token=` switches a browser that has the other token's cookie.
        #expect(
            locked.decide(request(query: "token=\(Self.tablet)", cookies: ["thuis_token=\(Self.secret)"]))
                == .redirect(location: "/", setCookie: "thuis_token=\(Self.tablet); Path=/; HttpOnly; SameSite=Strict"))
        // Without tokens (loopback only) everyone is admin.
        #expect(open.decide(request("/network")) == .allowed(.admin))
    }

    /// Should the two tokens ever be equal (the configuration refuses it), a token matching both is the control
    /// role: the wall tablet's token never makes anyone admin.
    @Test func aTokenMatchingBothRolesIsOnlyControl() throws {
        let same = try DashboardToken(text: Self.tablet)
        let access = DashboardAccess(admin: same, control: same)
        #expect(access.decide(request(authorization: "Bearer \(Self.tablet)")) == .allowed(.control))
        #expect(access.decide(request("/ws", query: "token=\(Self.tablet)", upgrade: true)) == .allowed(.control))
        guard case .forbidden = access.decide(request("/network", cookies: ["thuis_token=\(Self.tablet)"])) else {
            Issue.record("a token matching both roles saw the network page")
            return
        }
    }

    @Test func aSecureCookieForATLSProxy() {
        let secure = DashboardAccess(admin: try? DashboardToken(text: Self.secret), secureCookie: true)
        #expect(
            secure.decide(request(query: "token=\(Self.secret)"))
                == .redirect(
                    location: "/", setCookie: "thuis_token=\(Self.secret); Path=/; HttpOnly; SameSite=Strict; Secure"))
    }

    @Test func aProxysBasicLoginDoesNotHideTheCookie() {
        let basic = "Basic dXNlcjpwYXNzd29yZA=="
        #expect(
            locked.decide(request(authorization: basic, cookies: ["thuis_token=\(Self.secret)"])) == .allowed(.admin))
        #expect(
            locked.decide(request("/ws", authorization: basic, cookies: ["thuis_token=\(Self.tablet)"], upgrade: true))
                == .allowed(.control))
        guard case .unauthorized = locked.decide(request(authorization: basic)) else {
            Issue.record("a Basic login alone was let in")
            return
        }
    }

    @Test func aMissingOrWrongTokenIsUnauthorized() {
        let wrong = String(Self.secret.dropLast()) + "0"
        let refused: [DashboardAccess.Request] = [
            request(), request(authorization: "Bearer \(wrong)"), request(authorization: "Basic \(Self.secret)"),
            request(authorization: "Bearer"), request(cookies: ["thuis_token=\(wrong)"]),
            request(query: "token=\(wrong)"),
            request(query: "token="), request("/ws", upgrade: true),
            request("/ws", query: "token=\(wrong)", upgrade: true),
            // A wrong header is not rescued by a right cookie.
            request(authorization: "Bearer \(wrong)", cookies: ["thuis_token=\(Self.secret)"]),
        ]
        for candidate in refused {
            guard case .unauthorized = locked.decide(candidate) else {
                Issue.record("let in: \(candidate)")
                continue
            }
        }
    }
}
