import BridgeCore
import BridgeDaemon
import TestSupport
import Testing
import WebDashboard

/// The daemon reads the dashboard's tokens as `[web]` gives them: the old single token is the admin's, with a notice
/// in the log at start; the tokens themselves are never logged.
@Suite struct DashboardRoleConfigurationTests {
    static let admin = "0123456789abcdef0123456789abcdef"
    static let tablet = "tablet-0123456789abcdef"

    func web(_ web: ConfigFixture.Web) throws -> WebSection {
        try #require(try ConfigurationLoader.parse(text: ConfigFixture(name: "living", web: web).text).web)
    }

    @Test func theOldTokenIsTheAdminsAndItsKeyIsLoggedAsDeprecated() throws {
        let capture = LogCapture()
        let access = try Composition.dashboardAccess(
            try web(.init(listen: "0.0.0.0:8080", authToken: Self.admin)), logger: capture.logger())
        let notices = capture.lines.filter { $0.hasPrefix("notice [web] auth_token is deprecated") }
        #expect(notices.count == 1, "\(capture.lines)")
        #expect(notices.first?.contains("admin_token") == true)
        #expect(!capture.lines.joined().contains(Self.admin), "the token was logged")
        let request = DashboardAccess.Request(path: "/network", authorization: "Bearer \(Self.admin)", host: "x")
        #expect(access.decide(request) == .allowed(.admin))
    }

    @Test func theNewKeysLogNothingAndGiveEachTokenItsRole() throws {
        let capture = LogCapture()
        let access = try Composition.dashboardAccess(
            try web(.init(adminToken: Self.admin, controlToken: Self.tablet)), logger: capture.logger())
        #expect(capture.lines.isEmpty, "\(capture.lines)")
        #expect(access.decide(.init(path: "/", authorization: "Bearer \(Self.tablet)")) == .allowed(.control))
        #expect(access.decide(.init(path: "/", authorization: "Bearer \(Self.admin)")) == .allowed(.admin))
    }
}
