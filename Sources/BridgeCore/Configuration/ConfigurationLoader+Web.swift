extension ConfigurationLoader {
    static let webKeys = [
        "listen", "admin_token", "admin_token_file", "control_token", "control_token_file", "auth_token",
        "auth_token_file", "secure_cookie",
    ]

    /// `[web]`: `listen`, the tokens, `secure_cookie`; nil when the section is absent (no web server) or invalid (its
    /// problems are reported). A listen address beyond loopback without an admin token is refused.
    static func readWeb(_ root: TableReader) -> WebSection? {
        guard root.contains("web") else { return nil }
        guard let table = root.table("web", known: webKeys) else { return nil }
        var valid = true
        var listen = WebSection.defaultListen
        if let text = table.string("listen") {
            do {
                listen = try WebListenAddress(parsing: text)
            } catch {
                table.report("listen", "\(error.description) (got \(TableReader.quoted(text)))")
                valid = false
            }
        } else if table.contains("listen") {
            valid = false
        }
        let secureCookie = table.bool("secure_cookie")
        if secureCookie == nil && table.contains("secure_cookie") { valid = false }
        var admin = readToken(table, "admin_token", valid: &valid)
        if let old = readToken(table, "auth_token", valid: &valid) {
            if let admin {
                table.report(
                    old.key, "\(old.key) is the old name of \(admin.key): give the admin token once, as \(admin.key)")
                valid = false
            }
            admin = admin ?? old
        }
        let control = readToken(table, "control_token", valid: &valid)
        if valid, let control, admin == nil {
            table.report(
                control.key,
                "a control token needs an admin token (admin_token or admin_token_file) too: without one nobody "
                    + "could manage the network")
            valid = false
        }
        if valid, case .inline(let token)? = control?.source, case .inline(token)? = admin?.source, let control {
            table.report(control.key, "the control token must differ from the admin token")
            valid = false
        }
        if valid, !listen.isLoopback, admin == nil {
            table.report(
                "listen",
                "\(listen) is reachable beyond this machine, so it needs admin_token or admin_token_file (the "
                    + "dashboard switches lights and includes devices); or listen on 127.0.0.1")
            valid = false
        }
        guard valid else { return nil }
        return WebSection(listen: listen, adminToken: admin, controlToken: control, secureCookie: secureCookie ?? false)
    }

    /// `<name>` (inline) or `<name>_file`, not both; nil when neither is given or the one given is invalid.
    private static func readToken(_ table: TableReader, _ name: String, valid: inout Bool) -> DashboardTokenSetting? {
        let fileKey = name + "_file"
        if table.contains(name) && table.contains(fileKey) {
            table.report(fileKey, "use \(name) or \(fileKey), not both")
            valid = false
            return nil
        }
        if let text = table.string(name) {
            do {
                return DashboardTokenSetting(key: name, source: .inline(try DashboardToken(text: text)))
            } catch {
                table.report(name, error.description)
                valid = false
                return nil
            }
        } else if table.contains(name) {
            valid = false
            return nil
        }
        if let file = table.nonEmptyString(fileKey) { return DashboardTokenSetting(key: fileKey, source: .file(file)) }
        if table.contains(fileKey) { valid = false }
        return nil
    }
}
