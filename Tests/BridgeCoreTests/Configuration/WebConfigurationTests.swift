import BridgeCore
import Foundation
import TestSupport
import Testing

/// `[web]`: the dashboard's address, its two tokens (admin, control) and the cookie; a listen address beyond loopback
/// without an admin token is refused.
@Suite struct WebConfigurationTests {
    static let token = "0123456789abcdef0123456789abcdef"
    static let control = "tablet-0123456789abcdef"

    func load(_ web: ConfigFixture.Web?) throws(ConfigurationError) -> BridgeConfiguration {
        try ConfigurationLoader.parse(text: ConfigFixture(name: "living", web: web).text)
    }

    /// The problems of a devices.toml with `web`, as `line: key path: message`.
    func problems(_ web: ConfigFixture.Web) -> [String] {
        do {
            _ = try load(web)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func noSectionIsNoWebServer() throws {
        #expect(try load(nil).web == nil)
    }

    @Test func anEmptySectionServesOnLoopbackPort8080WithoutAToken() throws {
        let web = try #require(try load(.init()).web)
        #expect(web.listen == WebListenAddress(host: "127.0.0.1", port: 8080))
        #expect(web.listen.isLoopback)
        #expect(!web.requiresToken)
    }

    @Test(arguments: [
        ("127.0.0.1:8080", "127.0.0.1", 8080, true), ("127.1.2.3:1", "127.1.2.3", 1, true),
        ("localhost:9000", "localhost", 9000, true), ("[::1]:8080", "::1", 8080, true),
        ("[0:0:0:0:0:0:0:1]:80", "0:0:0:0:0:0:0:1", 80, true), ("127.0.0.1:0", "127.0.0.1", 0, true),
        ("0.0.0.0:8080", "0.0.0.0", 8080, false), ("192.168.1.10:8080", "192.168.1.10", 8080, false),
        ("[::]:8080", "::", 8080, false),
    ])
    func listenAddresses(text: String, host: String, port: Int, loopback: Bool) throws {
        let web = try #require(try load(.init(listen: text, authToken: Self.token)).web)
        #expect(web.listen.host == host)
        #expect(web.listen.port == port)
        #expect(web.listen.isLoopback == loopback)
    }

    @Test(arguments: [
        ("8080", "must be host:port"), ("127.0.0.1", "must be host:port"),
        ("dashboard.local:8080", "must be an IP address or localhost"), ("127.0.0.1:65536", "the port must be 0-65535"),
        ("127.0.0.1:http", "the port must be 0-65535"), ("256.0.0.1:80", "must be an IP address or localhost"),
        ("::1:8080", "must be an IP address or localhost"), ("[::1]8080", "in brackets with a port"),
        ("[zz::1]:80", "is not an IPv6 address"),
    ])
    func badListenAddressesAreReportedWithTheirKeyPath(text: String, message: String) {
        let found = problems(.init(listen: text, authToken: Self.token))
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix("4: web.listen: ") == true, "\(found)")
        #expect(found.first?.contains(message) == true, "\(found)")
    }

    @Test func aListenAddressBeyondLoopbackNeedsAnAdminToken() {
        let found = problems(.init(listen: "0.0.0.0:8080"))
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix("4: web.listen: 0.0.0.0:8080 is reachable beyond this machine") == true)
        #expect(found.first?.contains("admin_token or admin_token_file") == true)
        // With an admin token (or its file, or the old names) it is fine.
        #expect(problems(.init(listen: "0.0.0.0:8080", adminToken: Self.token)).isEmpty)
        #expect(problems(.init(listen: "0.0.0.0:8080", adminTokenFile: "/etc/thuis-bridge/admin.token")).isEmpty)
        #expect(problems(.init(listen: "0.0.0.0:8080", authToken: Self.token)).isEmpty)
        #expect(problems(.init(listen: "0.0.0.0:8080", authTokenFile: "/etc/thuis-bridge/web.token")).isEmpty)
    }

    @Test func theTwoRolesTokens() throws {
        let web = try #require(
            try load(.init(listen: "0.0.0.0:8080", adminToken: Self.token, controlToken: Self.control)).web)
        #expect(
            web.adminToken == DashboardTokenSetting(key: "admin_token", source: .inline(try .init(text: Self.token))))
        #expect(
            web.controlToken
                == DashboardTokenSetting(key: "control_token", source: .inline(try .init(text: Self.control))))
        #expect(web.deprecationNotice == nil)
        #expect(!web.secureCookie)
        let files = try #require(
            try load(.init(adminTokenFile: "/etc/t/admin.token", controlTokenFile: "/etc/t/control.token")).web)
        #expect(files.adminToken == DashboardTokenSetting(key: "admin_token_file", source: .file("/etc/t/admin.token")))
        #expect(files.controlToken?.keyPath == "web.control_token_file")
    }

    @Test func theOldTokenIsTheAdminTokenWithADeprecationNotice() throws {
        let web = try #require(try load(.init(authToken: Self.token)).web)
        #expect(web.adminToken?.keyPath == "web.auth_token")
        #expect(web.deprecationNotice?.hasPrefix("[web] auth_token is deprecated: it is taken as admin_token") == true)
        let file = try #require(try load(.init(authTokenFile: "/etc/thuis-bridge/web.token")).web)
        #expect(file.deprecationNotice?.contains("auth_token_file is deprecated") == true)
        #expect(file.deprecationNotice?.contains("admin_token_file") == true)
    }

    @Test func roleConfigurationErrorsNameTheirKeyPaths() {
        let cases: [(ConfigFixture.Web, String)] = [
            (.init(controlToken: Self.control), "4: web.control_token: a control token needs an admin token"),
            (
                .init(listen: "0.0.0.0:8080", controlTokenFile: "/etc/t/control.token"),
                "5: web.control_token_file: a control token needs an admin token"
            ),
            (
                .init(authToken: Self.token, adminToken: Self.control),
                "4: web.auth_token: auth_token is the old name of admin_token"
            ),
            (
                .init(adminToken: Self.token, adminTokenFile: "/etc/t/admin.token"),
                "5: web.admin_token_file: use admin_token or admin_token_file, not both"
            ),
            (
                .init(adminToken: Self.token, controlToken: Self.token),
                "5: web.control_token: the control token must differ from the admin token"
            ),
            (.init(adminToken: Self.token, controlToken: "short"), "5: web.control_token: a token must be"),
            (.init(adminToken: "short"), "4: web.admin_token: a token must be"),
        ]
        for (web, expected) in cases {
            let found = problems(web)
            #expect(found.count == 1, "\(found)")
            #expect(found.first?.hasPrefix(expected) == true, "\(found), expected \(expected)")
        }
        let text = ConfigFixture(name: "living", web: .init()).appending("secure_cookie = \"yes\"").text
        do {
            _ = try ConfigurationLoader.parse(text: text)
            Issue.record("secure_cookie = \"yes\" was taken")
        } catch {
            #expect(error.problems.first?.description.hasPrefix("4: web.secure_cookie: ") == true, "\(error)")
        }
    }

    @Test func secureCookie() throws {
        #expect(try load(.init(adminToken: Self.token, secureCookie: true)).web?.secureCookie == true)
        #expect(try load(.init(adminToken: Self.token, secureCookie: false)).web?.secureCookie == false)
    }

    @Test func aTokenAndATokenFileTogetherAreRefused() {
        let found = problems(.init(authToken: Self.token, authTokenFile: "/etc/thuis-bridge/web.token"))
        #expect(found == ["5: web.auth_token_file: use auth_token or auth_token_file, not both"])
    }

    @Test(arguments: ["short", String(repeating: "a", count: 257), "0123456789abcdef 0123", "0123456789abcdef/0123"])
    func aBadTokenIsRefusedWithoutQuotingIt(token: String) {
        let found = problems(.init(authToken: token))
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix("4: web.auth_token: a token ") == true, "\(found)")
        #expect(found.first?.contains(token) == false, "the message quotes the token: \(found)")
    }

    @Test func unknownKeysInTheSectionAreReported() {
        let text = ConfigFixture(name: "living", web: .init()).appending("listne = \"x\"").text
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.parse(text: text) }
        do {
            _ = try ConfigurationLoader.parse(text: text)
        } catch {
            #expect(error.problems.map(\.description) == [#"4: web.listne: unknown key; did you mean "listen"?"#])
        }
    }

    /// The token file is checked at load like the daemon reads it: readable, only its owner may access it, a token.
    @Test func theTokenFileIsCheckedAtLoad() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("thuis-web-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tokenFile = directory.appendingPathComponent("web.token").path
        let config = directory.appendingPathComponent("devices.toml")
        try Data(ConfigFixture(name: "living", web: .init(authTokenFile: tokenFile)).text.utf8).write(to: config)
        func loadProblems() -> [String] {
            do {
                _ = try ConfigurationLoader.load(path: config.path)
                return []
            } catch {
                return error.problems.map(\.message)
            }
        }
        #expect(loadProblems().first?.contains("cannot be read") == true)
        try Data((Self.token + "\n").utf8).write(to: URL(fileURLWithPath: tokenFile))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: tokenFile)
        #expect(loadProblems().first?.contains("its group or others may access it (mode 0644)") == true)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: tokenFile)
        #expect(loadProblems().isEmpty)
        #expect(try DashboardToken(contentsOfFile: tokenFile) == DashboardToken(text: Self.token))
        try Data("not a token\n".utf8).write(to: URL(fileURLWithPath: tokenFile))
        #expect(loadProblems().first?.contains("a token must be 16 to 256 characters long") == true)
    }

    /// The control token's file is checked the same way, under its own key path.
    @Test func theControlTokenFileIsCheckedAtLoad() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("thuis-web-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tokenFile = directory.appendingPathComponent("control.token").path
        try Data((Self.control + "\n").utf8).write(to: URL(fileURLWithPath: tokenFile))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: tokenFile)
        let config = directory.appendingPathComponent("devices.toml")
        let web = ConfigFixture.Web(adminToken: Self.token, controlTokenFile: tokenFile)
        try Data(ConfigFixture(name: "living", web: web).text.utf8).write(to: config)
        do {
            _ = try ConfigurationLoader.load(path: config.path)
            Issue.record("a control token file others may read was taken")
        } catch {
            #expect(error.problems.map(\.keyPath) == ["web.control_token_file"])
            #expect(error.problems.first?.message.contains("(mode 0640)") == true)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: tokenFile)
        let loaded = try ConfigurationLoader.load(path: config.path)
        #expect(try loaded.web?.controlToken?.read() == DashboardToken(text: Self.control))
    }

    /// The same token for both roles is refused under the control token's key path however each is given: inline,
    /// from files, or one of each (with one token for both the wall tablet would be admin).
    @Test(arguments: [(false, true), (true, false), (true, true)])
    func equalTokensFromFilesAreRefusedAtLoad(adminFromFile: Bool, controlFromFile: Bool) throws {
        let directory = try TemporaryDirectory(prefix: "thuis-web")
        defer { directory.remove() }
        var web = ConfigFixture.Web()
        for (fromFile, name) in [(adminFromFile, "admin"), (controlFromFile, "control")] {
            let file = try directory.write("\(name).token", Self.token + "\n")
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
            switch (name, fromFile) {
            case ("admin", true): web.adminTokenFile = file
            case ("admin", false): web.adminToken = Self.token
            case (_, true): web.controlTokenFile = file
            default: web.controlToken = Self.token
            }
        }
        let config = try directory.write("devices.toml", ConfigFixture(name: "living", web: web).text)
        let keyPath = controlFromFile ? "web.control_token_file" : "web.control_token"
        do {
            _ = try ConfigurationLoader.load(path: config)
            Issue.record("one token for both roles was taken")
        } catch {
            #expect(error.problems.map(\.keyPath) == [keyPath], "\(error)")
            #expect(
                error.problems.first?.message.hasPrefix("the control token must differ from the admin token") == true,
                "\(error)")
        }
        // Different tokens in the same places load.
        let control = try directory.write("control.token", Self.control + "\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: control)
        if !controlFromFile { web.controlToken = Self.control }
        try directory.write("devices.toml", ConfigFixture(name: "living", web: web).text)
        #expect(
            try ConfigurationLoader.load(path: config).web?.controlToken?.read() == DashboardToken(text: Self.control))
    }

    @Test func aTokenMatchesOnlyItselfAndNeverShowsItself() throws {
        let token = try DashboardToken(text: Self.token)
        #expect(token.matches(Array(Self.token.utf8)))
        #expect(!token.matches(Array(Self.token.dropLast().utf8)))
        #expect(!token.matches(Array((Self.token + "0").utf8)))
        #expect(!token.matches(Array(Self.token.replacingOccurrences(of: "f", with: "e").utf8)))
        #expect(!token.matches([UInt8]()))
        #expect("\(token)" == "<dashboard token>")
        #expect(String(reflecting: token) == "<dashboard token>")
    }
}
